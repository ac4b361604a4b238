import { metricsRegistry } from '@engage/kit';
import { eventually, stackConfig } from '@engage/testkit';
import { afterAll, expect, it } from 'vitest';
import { createPool } from '../src/pool.ts';

const SCHEMA = 'pool_metrics_test';
const pool = createPool({ url: stackConfig().databaseUrl, schema: SCHEMA, max: 2 });
afterAll(async () => {
  await pool.end();
});

/** The pool gauges of this test's schema, as `name{labels}` -> value, read as a scrape reads them. */
async function poolFigures(): Promise<Record<string, number>> {
  const figures: Record<string, number> = {};
  for (const name of [
    'db_client_connection_count',
    'db_client_connection_max',
    'db_client_connection_pending_requests',
  ]) {
    const metric = await metricsRegistry.getSingleMetric(name)?.get();
    for (const { labels, value } of metric?.values ?? []) {
      if (labels.schema !== SCHEMA) continue;
      figures[labels.state ? `${name}{${labels.state}}` : name] = value;
    }
  }
  return figures;
}

it('reports connections in use, idle, the maximum and the requests waiting for one', async () => {
  const first = await pool.connect();
  const second = await pool.connect();
  const waiting = pool.query('SELECT 1');
  await eventually('the third request to wait', async () => (pool.waitingCount === 1 ? true : undefined));
  expect(await poolFigures()).toEqual({
    'db_client_connection_count{idle}': 0,
    'db_client_connection_count{used}': 2,
    db_client_connection_max: 2,
    db_client_connection_pending_requests: 1,
  });

  first.release();
  await waiting;
  second.release();
  expect(await poolFigures()).toEqual({
    'db_client_connection_count{idle}': 2,
    'db_client_connection_count{used}': 0,
    db_client_connection_max: 2,
    db_client_connection_pending_requests: 0,
  });
});
