import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { loadCompose, type Manifest, readRepoFile } from '../../k8s/manifests.ts';
import { SERVICES } from '../../k8s/overlays.ts';

const dashboard = JSON.parse(readRepoFile('deploy/grafana/dashboards/engage.json')) as Manifest;
const expressions: string[] = dashboard.panels.flatMap((panel: Manifest) =>
  (panel.targets ?? []).map((target: Manifest) => target.expr),
);
/** Metric names the services register (prom-client `name:` fields in the shared libs). */
const registered = [
  readRepoFile('libs/kit/src/metrics.ts'),
  readRepoFile('libs/kafka/src/metrics.ts'),
  readRepoFile('libs/postgres/src/metrics.ts'),
  readRepoFile('libs/redis/src/metrics.ts'),
  readRepoFile('services/gateway/src/limits/metrics.ts'),
].flatMap((source) => [...source.matchAll(/name: '([a-z_]+)'/g)].map((m) => m[1]));

describe('deploy/grafana dashboard', () => {
  it.each([
    'http_server_request_duration_seconds',
    'kafka_consumer_lag_records',
    'kafka_consumer_batch_records',
    'kafka_consumer_partition_stalled_seconds',
    'kafka_dead_letters_total',
    'kafka_produce_duration_seconds',
    'db_client_operation_duration_seconds',
    'redis_client_command_duration_seconds',
    'engage_organization_limit_slots_in_use',
    'engage_organization_limit_waiting',
    'engage_organization_limit_refusals_total',
  ])('charts %s, which the services register', (metric) => {
    expect(registered).toContain(metric);
    expect(expressions.some((expr) => expr.includes(metric))).toBe(true);
  });

  it('queries only metrics the services register (histograms through their series)', () => {
    const used = expressions.flatMap((expr) => [...expr.matchAll(/\b([a-z]+_[a-z_]+)\{/g)].map((m) => m[1]));
    const unknown = used.filter(
      (name) =>
        !registered.some(
          (metric) => name === metric || name?.match(new RegExp(`^${metric}_(bucket|sum|count)$`)),
        ),
    );
    expect(unknown).toEqual([]);
  });
});

describe('deploy/otel-collector.yaml', () => {
  const config = parse(readRepoFile('deploy/otel-collector.yaml')) as Manifest;

  it('receives OTLP over HTTP where the services send their traces', () => {
    const endpoint = new URL(loadCompose().services.gateway.environment.OTEL_EXPORTER_OTLP_ENDPOINT);
    expect(config.receivers.otlp.protocols.http.endpoint).toBe(`0.0.0.0:${endpoint.port}`);
    expect(config.service.pipelines.traces.receivers).toEqual(['otlp']);
  });

  it('scrapes the four services at their compose metrics ports, labelled by service', () => {
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
