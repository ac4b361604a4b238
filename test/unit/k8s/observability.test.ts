import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { collectDefaultMetrics, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { containerOf, find, loadCompose, type Manifest, readRepoFile, render } from '../../k8s/manifests.ts';
import { REPO_ROOT, SERVICES } from '../../k8s/overlays.ts';

const dashboard = JSON.parse(readRepoFile('deploy/grafana/dashboards/engage.json')) as Manifest;
const expressions: string[] = dashboard.panels.flatMap((panel: Manifest) =>
  (panel.targets ?? []).map((target: Manifest) => target.expr),
);

/** Every TypeScript source of the libraries and services, by repository path. */
const sourceFiles = ['libs', 'services'].flatMap((top) =>
  readdirSync(join(REPO_ROOT, top), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .flatMap((entry) => {
      const src = join(top, entry.name, 'src');
      try {
        return (readdirSync(join(REPO_ROOT, src), { recursive: true }) as string[])
          .filter((file) => file.endsWith('.ts'))
          .map((file) => join(src, file));
      } catch {
        return [];
      }
    }),
);

/** prom-client's default metrics, which every service registers (libs/kit/src/metrics.ts). */
const defaultMetrics = new Registry();
collectDefaultMetrics({ register: defaultMetrics });
const runtimeMetrics = (await defaultMetrics.getMetricsAsJSON()).map((metric) => metric.name);

/** Metric names the services register: prom-client metrics created in the code, and the defaults. */
const registered = [
  ...sourceFiles.flatMap((file) =>
    [...readRepoFile(file).matchAll(/new (?:Counter|Gauge|Histogram|Summary)\(\{\s*name: '([a-z_]+)'/g)].map(
      (m) => m[1] as string,
    ),
  ),
  ...runtimeMetrics,
];

const isRegistered = (name: string) =>
  registered.some((metric) => name === metric || new RegExp(`^${metric}_(bucket|sum|count)$`).test(name));

/**
 * The metric names a PromQL expression selects: what is left of its identifiers once label
 * matchers, grouping clauses, strings and function calls are taken out.
 */
function metricsIn(expr: string): string[] {
  const bare = expr
    .replace(/\{[^}]*\}/g, ' ')
    .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, ' ')
    .replace(/\[[^\]]*\]/g, ' ');
  return [...bare.matchAll(/\b([a-z_][a-z0-9_]*)\b(?!\s*\()/g)]
    .map((m) => m[1] as string)
    .filter((name) => name.includes('_'));
}

describe('deploy/grafana dashboard', () => {
  it.each([
    'http_server_request_duration_seconds',
    'kafka_consumer_lag_records',
    'kafka_consumer_batch_records',
    'kafka_consumer_partition_stalled_seconds',
    'kafka_dead_letters_total',
    'kafka_produce_duration_seconds',
    'kafka_produce_failures_total',
    'db_client_operation_duration_seconds',
    'db_client_connection_count',
    'db_client_connection_pending_requests',
    'redis_client_command_duration_seconds',
    'engage_organization_limit_slots_in_use',
    'engage_organization_limit_waiting',
    'engage_organization_limit_refusals_total',
  ])('charts %s, which the services register', (metric) => {
    expect(registered).toContain(metric);
    expect(expressions.some((expr) => expr.includes(metric))).toBe(true);
  });

  it.each(['nodejs_eventloop_lag_p99_seconds', 'nodejs_gc_duration_seconds', 'nodejs_heap_size_used_bytes'])(
    'charts the Node runtime: %s, one of prom-client’s default metrics',
    (metric) => {
      expect(runtimeMetrics).toContain(metric);
      const runtimeRow = dashboard.panels.findIndex((panel: Manifest) => panel.title === 'Node runtime');
      expect(runtimeRow).toBeGreaterThan(-1);
      const runtimePanels = dashboard.panels.slice(runtimeRow + 1) as Manifest[];
      expect(
        runtimePanels.some((panel) => panel.targets.some((target: Manifest) => target.expr.includes(metric))),
      ).toBe(true);
    },
  );

  it('queries only metrics the services register (histograms through their series)', () => {
    const unknown = expressions.flatMap(metricsIn).filter((name) => !isRegistered(name));
    expect(unknown).toEqual([]);
  });
});

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
const anchorOf = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');

describe('k8s/monitoring: Prometheus Operator resources', () => {
  const monitoring = render('overlays/prod/monitoring');
  const app = render('overlays/prod');
  const rules: Manifest[] = monitoring
    .filter((o) => o.kind === 'PrometheusRule')
    .flatMap((rule) => rule.spec.groups.flatMap((group: Manifest) => group.rules));
  const operatingAnchors = [...readRepoFile('docs/operating.md').matchAll(/^#{1,6} (.+)$/gm)].map((m) =>
    anchorOf(m[1] as string),
  );

  it('are applied apart from the base, which the app overlays apply without them', () => {
    for (const overlay of ['overlays/dev', 'overlays/prod']) {
      const kinds = render(overlay).map((o) => o.apiVersion as string);
      expect(kinds.filter((apiVersion) => apiVersion.startsWith('monitoring.coreos.com/'))).toEqual([]);
    }
    expect(new Set(monitoring.map((o) => o.metadata.namespace))).toEqual(
      new Set([find(app, 'Deployment', 'gateway').metadata.namespace]),
    );
  });

  it.each(SERVICES)(
    '%s: a PodMonitor scrapes its pods’ metrics port, labelled with the service',
    (service) => {
      const monitor = find(monitoring, 'PodMonitor', service);
      const deployment = find(app, 'Deployment', service);
      expect(monitor.spec.selector.matchLabels).toEqual(deployment.spec.selector.matchLabels);
      const [endpoint, ...others] = monitor.spec.podMetricsEndpoints as Manifest[];
      expect(others).toEqual([]);
      expect(endpoint).toMatchObject({ port: 'metrics', path: '/metrics' });
      expect(containerOf(deployment).ports.map((p: Manifest) => p.name)).toContain(endpoint?.port);
      expect(endpoint?.relabelings).toContainEqual({
        sourceLabels: ['__meta_kubernetes_pod_label_app_kubernetes_io_name'],
        targetLabel: 'service',
      });
    },
  );

  it('every alert’s runbook is a section of docs/operating.md', () => {
    expect(rules.length).toBeGreaterThan(0);
    for (const rule of rules) {
      const match = /^docs\/operating\.md#(.+)$/.exec(rule.annotations.runbook_url);
      expect(match, rule.alert).not.toBeNull();
      expect(operatingAnchors, rule.alert).toContain(match?.[1]);
    }
  });

  it('every alert selects only metrics the services register, and names at least one', () => {
    for (const rule of rules) {
      const metrics = metricsIn(rule.expr);
      expect(metrics.length, rule.alert).toBeGreaterThan(0);
      expect(
        metrics.filter((name) => !isRegistered(name)),
        rule.alert,
      ).toEqual([]);
    }
  });

  it.each([
    ['consumer lag', 'kafka_consumer_lag_records'],
    ['a partition not advancing', 'kafka_consumer_partition_stalled_seconds'],
    ['dead letters', 'kafka_dead_letters_total'],
    ['produce failures', 'kafka_produce_failures_total'],
    ['5xx answers', 'http_server_request_duration_seconds_count'],
    ['organization-limit refusals', 'engage_organization_limit_refusals_total'],
    ['Postgres pool saturation', 'db_client_connection_pending_requests'],
    ['paused webhook endpoints', 'engage_webhook_attempts_total'],
  ])('alerts on %s (%s)', (_what, metric) => {
    expect(rules.some((rule) => metricsIn(rule.expr).includes(metric))).toBe(true);
  });
});

describe('deploy/otel-collector.yaml', () => {
  const config = parse(readRepoFile('deploy/otel-collector.yaml')) as Manifest;

  it('receives OTLP over HTTP where the services send their traces', () => {
    const endpoint = new URL(loadCompose().services.gateway.environment.OTEL_EXPORTER_OTLP_ENDPOINT);
    expect(config.receivers.otlp.protocols.http.endpoint).toBe(`0.0.0.0:${endpoint.port}`);
    expect(config.service.pipelines.traces.receivers).toEqual(['otlp']);
  });

  it('scrapes the five services at their compose metrics ports, labelled by service', () => {
    const compose = loadCompose();
    const targets = config.receivers.prometheus.config.scrape_configs[0].static_configs as Manifest[];
    expect(targets).toEqual(
      SERVICES.map((service) => ({
        targets: [`${service}:${compose.services[service].environment.METRICS_PORT}`],
        labels: { service },
      })),
    );
  });
});
