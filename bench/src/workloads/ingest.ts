import { randomUUID } from 'node:crypto';
import { type AcceptedEvent, topicName, topics } from '@engage/contracts';
import { connectProducer, createKafka, produceMessages, produceRecords, toMessages } from '@engage/kafka';
import { createLogger } from '@engage/kit';
import { createTenant } from '@engage/testkit/tenant.ts';
import { Pool as HttpPool } from 'undici';
import type { WorkloadReport } from '../main.ts';
import { drive, driveOnSchedule, Recorder } from '../measure.ts';
import { cpuProfileArgs, processCpuMs } from '../process-cpu.ts';
import { startBenchStack } from '../stack.ts';
import { describeStalls, watchStalls } from '../stalls.ts';
import type { WorkloadOptions } from './index.ts';

const BATCH = 1_000;
const PLAYERS = 10_000;
/** Half of the 50,000 events/s: the rate at which its p99 target (50 ms per batch) applies. */
const TARGET_HALF_RATE = 25_000;
/** The p99 bound, ms: what a slow batch is, for the report of where slow ones waited. */
const SLOW_MS = 50;

/**
 * Batches of 1,000 realistic events through one gateway process into Kafka, beside kafkajs
 * producing the same Avro records straight to the same topic (encoding them on each send, as the
 * gateway does, and once more with values encoded beforehand, to show what Avro costs). Every
 * player is sighted once before the measured runs: first sight (creating 10,000 players and
 * admitting them to the month) is a once-a-month cost per player, not the steady state measured.
 */
export async function ingest(options: WorkloadOptions): Promise<WorkloadReport> {
  const concurrency = options.concurrency ?? 8;
  const stack = await startBenchStack(['gateway'], {
    nodeArgs: { gateway: cpuProfileArgs(options.cpuProfileDir, 'gateway') },
  });
  try {
    const tenant = await createTenant(stack.controlPlaneUrl, stack.adminToken);
    await defineEvents(stack.gatewayUrl, stack.adminToken, tenant.live.environmentId);
    const bodies = Array.from({ length: 16 }, (_, b) => JSON.stringify({ events: batch(b) }));
    const http = new HttpPool(stack.gatewayUrl, { connections: concurrency });
    const send = async (i: number) => {
      const res = await http.request({
        method: 'POST',
        path: '/v1/events',
        headers: { authorization: tenant.live.apiKey, 'content-type': 'application/json' },
        body: bodies[i % bodies.length],
      });
      const result = (await res.body.json()) as { accepted?: number };
      if (res.statusCode !== 200 || result.accepted !== BATCH) throw new Error(`status ${res.statusCode}`);
    };
    for (let i = 0; i < bodies.length; i += concurrency) {
      await Promise.all(bodies.slice(i, i + concurrency).map((_, j) => send(i + j)));
    }
    const gatewayPid = stack.services.gateway?.pid();
    const cpuBefore = processCpuMs(gatewayPid);
    const saturated = await drive(new Recorder(BATCH), (_w, i) => send(i), {
      concurrency,
      seconds: options.seconds,
    });
    const gatewayCpu = cpuPerThousand(processCpuMs(gatewayPid) - cpuBefore, saturated);
    const half = await driveOnSchedule(new Recorder(BATCH), send, {
      seconds: options.seconds,
      ratePerSecond: Math.max(1, saturated.opsPerSecond / 2),
    });
    const cpuBeforeTarget = processCpuMs(gatewayPid);
    const { result: targetHalf, stalls: targetHalfStalls } = await watchStalls(
      stack.services.gateway!.metricsUrl,
      ['/v1/events'],
      SLOW_MS,
      () =>
        driveOnSchedule(new Recorder(BATCH), send, {
          seconds: options.seconds,
          ratePerSecond: TARGET_HALF_RATE / BATCH,
        }),
    );
    const gatewayCpuAtTarget = cpuPerThousand(processCpuMs(gatewayPid) - cpuBeforeTarget, targetHalf);
    await http.close();

    const { raw, preEncoded, rawCpu } = await rawKafka(
      stack.infra.brokers,
      stack.topicPrefix,
      tenant.live.environmentId,
      concurrency,
      options.seconds,
    );
    return {
      workload: 'ingest',
      description: `POST /v1/events, ${BATCH} events per batch over ${PLAYERS} players, concurrency ${concurrency}`,
      rows: [
        { name: 'engage gateway', summary: saturated, units: `batches of ${BATCH}` },
        { name: 'engage gateway at half rate', summary: half, units: `batches of ${BATCH}` },
        {
          name: `engage gateway at ${TARGET_HALF_RATE.toLocaleString('en')} events/s`,
          summary: targetHalf,
          units: `batches of ${BATCH}`,
        },
        { name: 'raw kafkajs producer', summary: raw, units: `sends of ${BATCH}` },
        { name: 'raw kafkajs, values encoded before', summary: preEncoded, units: `sends of ${BATCH}` },
      ],
      ratios: { 'engage gateway / raw kafkajs': saturated.unitsPerSecond / raw.unitsPerSecond },
      notes: [
        'the gateway validates every item against its definition and produces with acks from all replicas',
        'every player was sighted once before the measured runs (first sight is a once-a-month cost)',
        `"at half rate" runs at half the saturated row's measured rate; the ${TARGET_HALF_RATE.toLocaleString('en')} events/s row at half the target's 50,000 (the rate the p99 target of 50 ms applies to)`,
        `both rate rows send on a fixed open schedule (${concurrency} connections) and time each batch from when it was due, so a batch that waited for a gateway behind schedule counts its wait (no coordinated omission)`,
        `where batches waited at ${TARGET_HALF_RATE.toLocaleString('en')} events/s: ${describeStalls(targetHalfStalls, SLOW_MS)}`,
        ...(options.cpuProfileDir ? [`CPU profile of the gateway: ${options.cpuProfileDir}`] : []),
        `CPU per 1,000 events at saturation (user + system, less sensitive than throughput to other load on the machine): gateway process ${gatewayCpu} ms, raw kafkajs (the bench process, Avro included) ${rawCpu} ms; gateway at ${TARGET_HALF_RATE.toLocaleString('en')} events/s ${gatewayCpuAtTarget} ms`,
      ],
    };
  } finally {
    await stack.stop();
  }
}

const cpuPerThousand = (cpuMs: number, run: { operations: number }) =>
  Math.round((cpuMs / (run.operations * BATCH)) * 1000 * 10) / 10;

function batch(seed: number) {
  return Array.from({ length: BATCH }, (_, i) => ({
    eventKey: i % 3 === 0 ? 'purchase_made' : 'level_completed',
    playerId: `player-${(seed * BATCH + i) % PLAYERS}`,
    occurredAt: new Date().toISOString(),
    properties: i % 3 === 0 ? { amount: 4.99, currency: 'EUR' } : { level: (i % 50) + 1, score: 1000 + i },
  }));
}

async function defineEvents(url: string, adminToken: string, environmentId: string) {
  const res = await fetch(`${url}/admin/v1/environments/${environmentId}/definition`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      discovery: false,
      events: [
        {
          key: 'level_completed',
          active: true,
          properties: {
            level: { type: 'number', required: true },
            score: { type: 'number', required: true },
          },
        },
        {
          key: 'purchase_made',
          active: true,
          properties: {
            amount: { type: 'number', required: true },
            currency: { type: 'string', required: true },
          },
        },
      ],
    }),
  });
  if (!res.ok) throw new Error(`defining events failed: ${res.status} ${await res.text()}`);
}

async function rawKafka(
  brokers: string[],
  prefix: string,
  environmentId: string,
  concurrency: number,
  seconds: number,
) {
  const kafka = createKafka({ brokers, clientId: 'bench-raw', log: createLogger('bench', 'error') });
  const producer = await connectProducer(kafka);
  const now = new Date().toISOString();
  const records: AcceptedEvent[][] = Array.from({ length: 16 }, (_, b) =>
    batch(b).map((e) => ({
      eventId: randomUUID(),
      organizationId: environmentId,
      environmentId,
      environmentKind: 'Live',
      playerId: e.playerId,
      eventKey: e.eventKey,
      occurredAt: now,
      receivedAt: now,
      timeZone: null,
      idempotencyKey: null,
      properties: Object.fromEntries(
        Object.entries(e.properties).map(([k, v]) => [
          k,
          typeof v === 'number'
            ? { type: 'Number', string: null, number: String(v), boolean: null, dateTime: null }
            : { type: 'String', string: v, number: null, boolean: null, dateTime: null },
        ]),
      ) as AcceptedEvent['properties'],
    })),
  );
  const encoded = records.map((batch) => toMessages(topics.eventsAccepted, batch));
  const topic = topicName(topics.eventsAccepted, prefix);
  try {
    const cpuBefore = process.cpuUsage();
    const raw = await drive(
      new Recorder(BATCH),
      async (_w, i) => {
        await produceRecords(producer, topics.eventsAccepted, prefix, records[i % records.length]!);
      },
      { concurrency, seconds },
    );
    const used = process.cpuUsage(cpuBefore);
    const rawCpu = cpuPerThousand((used.user + used.system) / 1000, raw);
    const preEncoded = await drive(
      new Recorder(BATCH),
      async (_w, i) => {
        await produceMessages(producer, topic, encoded[i % encoded.length]!);
      },
      { concurrency, seconds },
    );
    return { raw, preEncoded, rawCpu };
  } finally {
    await producer.disconnect();
  }
}
