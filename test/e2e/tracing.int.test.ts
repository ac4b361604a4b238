import {
  createTenant,
  eventually,
  startStack,
  TEST_ADMIN_TOKEN,
  type Tenant,
  type TestStack,
} from '@engage/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OtlpReceiver, type ReceivedSpan } from './support/otlp-receiver.ts';

const SERVER = 2;
const CONSUMER = 5;

/**
 * The four services export their spans to an OTLP receiver in this test, as they would to a
 * collector: one trace follows a request through the gateway, Kafka and the owning services, and
 * the traceId of a problem document finds it.
 */
describe('one trace per request, across every service', () => {
  const receiver = new OtlpReceiver();
  let stack: TestStack;
  let tenant: Tenant;
  const call = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
    fetch(`${stack.gatewayUrl}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${tenant.sandbox.apiKey}`,
        'content-type': 'application/json',
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  /** Posts one level_completed event of the player under a new trace whose caller span is `parentSpanId`. */
  const postTracedEvent = async (playerId: string, parentSpanId: string) => {
    const traceId = crypto.randomUUID().replaceAll('-', '');
    const res = await call(
      'POST',
      '/v1/events',
      { events: [{ eventKey: 'level_completed', playerId, properties: { level: 1 } }] },
      { traceparent: `00-${traceId}-${parentSpanId}-01` },
    );
    expect(res.status).toBe(200);
    return traceId;
  };
  const spansOf = (traceId: string, wanted: (spans: ReceivedSpan[]) => boolean) =>
    eventually(
      `the spans of trace ${traceId}`,
      async () => {
        const spans = receiver.inTrace(traceId);
        return wanted(spans) ? spans : undefined;
      },
      { timeoutMs: 60_000, intervalMs: 200 },
    );

  beforeAll(async () => {
    const endpoint = await receiver.start();
    stack = await startStack({
      env: { OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_BSP_SCHEDULE_DELAY: '200' },
    });
    tenant = await createTenant(stack.controlPlaneUrl, TEST_ADMIN_TOKEN, {
      definition: {
        discovery: false,
        events: [
          { key: 'level_completed', active: true, properties: { level: { type: 'number', required: true } } },
        ],
        missions: [
          {
            key: 'first-level',
            name: 'First level',
            objectives: [{ key: 'one', event: 'level_completed' }],
            rewards: [{ points: 5 }],
          },
        ],
      },
    });
  }, 120_000);

  afterAll(async () => {
    await stack?.stop();
    await receiver.stop();
  });

  it('follows an event from the HTTP request through Kafka into rules and query', async () => {
    const traceId = await postTracedEvent('tracer-1', 'ab'.repeat(8));
    const spans = await spansOf(traceId, (all) =>
      ['gateway', 'rules', 'query'].every((service) =>
        all.some(
          (s) => s.service === service && (service === 'gateway' ? s.kind === SERVER : s.kind === CONSUMER),
        ),
      ),
    );
    const request = spans.find((s) => s.service === 'gateway' && s.kind === SERVER)!;
    expect(request.name).toBe('POST /v1/events');
    expect(request.parentSpanId).toBe('ab'.repeat(8));
    for (const service of ['rules', 'query']) {
      const consumed = spans.filter((s) => s.service === service && s.kind === CONSUMER);
      expect(consumed.map((s) => s.name)).toContain(`process ${stack.topicPrefix}events.accepted.v1`);
    }
  });

  it('follows an event into the ledger when it completes a mission (rules to ledger through the rewards topic)', async () => {
    const playerId = `tracer-${crypto.randomUUID()}`;
    // Reading the missions enters the player; the event then completes the mission.
    expect((await call('POST', '/v1/missions', { playerId })).status).toBe(200);
    const traceId = await postTracedEvent(playerId, 'cd'.repeat(8));
    const rewards = `process ${stack.topicPrefix}rewards.granted.v1`;
    const spans = await spansOf(traceId, (all) =>
      all.some((s) => s.service === 'ledger' && s.kind === CONSUMER && s.name.startsWith(rewards)),
    );
    expect(spans.some((s) => s.service === 'rules' && s.kind === CONSUMER)).toBe(true);
    expect(spans.some((s) => s.service === 'gateway' && s.kind === SERVER)).toBe(true);
  });

  it('serves the Prometheus metrics of every service: HTTP, Kafka, Postgres, Redis and the organization limit', async () => {
    const expected: Record<string, string[]> = {
      gateway: [
        'http_server_request_duration_seconds_bucket',
        'kafka_produce_duration_seconds_bucket',
        'db_client_operation_duration_seconds_bucket',
        'redis_client_command_duration_seconds_bucket',
        'engage_organization_limit_slots_in_use',
        'engage_organization_limit_organization_slots_at_admission_bucket',
      ],
      rules: [
        'kafka_consumer_batch_records_bucket',
        'kafka_consumer_lag_records',
        'db_client_operation_duration_seconds_bucket',
      ],
      query: [
        'kafka_consumer_batch_records_bucket',
        'db_client_operation_duration_seconds_bucket',
        'redis_client_command_duration_seconds_bucket',
      ],
      ledger: ['http_server_request_duration_seconds_bucket', 'db_client_operation_duration_seconds_bucket'],
    };
    for (const [service, metrics] of Object.entries(expected)) {
      const { url, metricsUrl } = stack.services[service as keyof typeof stack.services]!;
      const text = await eventually(`${service} metrics`, async () => {
        const body = await (await fetch(metricsUrl)).text();
        return metrics.every((metric) => body.includes(`${metric}{`)) ? body : undefined;
      });
      expect(text).toContain('db_client_operation_duration_seconds_count{');
      // Not on the API port, the one callers reach (the owning services refuse unsigned calls first).
      const onApiPort = await fetch(`${url}/metrics`);
      expect(onApiPort.status).toBe(service === 'gateway' ? 404 : 401);
      expect(await onApiPort.text()).not.toContain('db_client_operation_duration_seconds');
    }
  });

  it('finds the gateway and the ledger spans of a refused request by its problem document traceId', async () => {
    const res = await call('POST', '/v1/points/adjustments', { playerId: 'tracer-2', amount: 0 });
    expect(res.status).toBe(400);
    const problem = (await res.json()) as { traceId: string; code: string };
    expect(problem.traceId).toMatch(/^[0-9a-f]{32}$/);
    const spans = await spansOf(problem.traceId, (all) =>
      ['gateway', 'ledger'].every((service) => all.some((s) => s.service === service && s.kind === SERVER)),
    );
    const gateway = spans.find((s) => s.service === 'gateway' && s.kind === SERVER)!;
    const ledger = spans.find((s) => s.service === 'ledger' && s.kind === SERVER)!;
    expect(gateway.name).toBe('POST /v1/points/adjustments');
    // The ledger's span is a descendant of the gateway's request span.
    const byId = new Map(spans.map((s) => [s.spanId, s]));
    let ancestor = byId.get(ledger.parentSpanId);
    while (ancestor && ancestor !== gateway) ancestor = byId.get(ancestor.parentSpanId);
    expect(ancestor).toBe(gateway);
  });
});
