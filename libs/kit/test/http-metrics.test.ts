import { describe, expect, it } from 'vitest';
import { createHttpApp, createLogger, metricsRegistry } from '../src/index.ts';

async function countOf(labels: Record<string, string>): Promise<number> {
  const { values } = await metricsRegistry.getSingleMetric('http_server_request_duration_seconds')!.get();
  // Histogram values carry the name of their series (…_bucket, …_sum, …_count).
  const series = values as ((typeof values)[number] & { metricName?: string })[];
  const count = series.find(
    (v) =>
      v.metricName === 'http_server_request_duration_seconds_count' &&
      Object.entries(labels).every(([k, value]) => v.labels[k] === value),
  );
  return count?.value ?? 0;
}

describe('the request duration metric', () => {
  it('counts each request in the series of its method, route and status', async () => {
    const app = createHttpApp({ log: createLogger('test', 'silent'), bodyLimit: 1024 });
    app.get('/v1/things/:id', async () => ({}));
    const found = { method: 'GET', route: '/v1/things/:id', status_code: '200' };
    const missing = { method: 'GET', route: 'unmatched', status_code: '404' };
    const before = [await countOf(found), await countOf(missing)];
    for (const id of ['a', 'b', 'c']) await app.inject({ method: 'GET', url: `/v1/things/${id}` });
    await app.inject({ method: 'GET', url: '/v1/nowhere' });
    expect([await countOf(found), await countOf(missing)]).toEqual([before[0]! + 3, before[1]! + 1]);
    await app.close();
  });
});
