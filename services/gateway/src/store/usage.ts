import type { PoolClient } from '@engage/postgres';

/**
 * Exact quota counters in Postgres. `lockCounter` creates the row if needed and holds its lock until
 * the transaction ends, so every replica admitting against the same counter takes turns.
 */

export type CounterMetric = 'monthly_active_players' | 'daily_events';

export async function lockCounter(
  client: PoolClient,
  scopeId: string,
  metric: CounterMetric,
  period: string,
): Promise<number> {
  const { rows } = await client.query<{ value: number }>(
    `INSERT INTO usage_counters AS c (scope_id, metric, period) VALUES ($1, $2, $3)
     ON CONFLICT (scope_id, metric, period) DO UPDATE SET value = c.value
     RETURNING value`,
    [scopeId, metric, period],
  );
  return rows[0]?.value ?? 0;
}

export async function addToCounter(
  client: PoolClient,
  scopeId: string,
  metric: CounterMetric,
  period: string,
  amount: number,
): Promise<void> {
  if (amount === 0) return;
  await client.query(
    `INSERT INTO usage_counters AS c (scope_id, metric, period, value) VALUES ($1, $2, $3, GREATEST($4, 0))
     ON CONFLICT (scope_id, metric, period) DO UPDATE SET value = GREATEST(c.value + $4, 0)`,
    [scopeId, metric, period, amount],
  );
}

export async function readCounter(
  db: { query: PoolClient['query'] },
  scopeId: string,
  metric: CounterMetric,
  period: string,
): Promise<number> {
  const { rows } = await db.query<{ value: number }>(
    'SELECT value FROM usage_counters WHERE scope_id = $1 AND metric = $2 AND period = $3',
    [scopeId, metric, period],
  );
  return rows[0]?.value ?? 0;
}

export interface CounterToRead {
  scopeId: string;
  metric: CounterMetric;
  period: string;
}

/** Several counters in one statement, in the order asked (0 for a counter never written). */
export async function readCounters(
  db: { query: PoolClient['query'] },
  counters: readonly CounterToRead[],
): Promise<number[]> {
  if (counters.length === 0) return [];
  const { rows } = await db.query<{ value: number | null }>(
    `SELECT c.value FROM unnest($1::uuid[], $2::text[], $3::date[]) WITH ORDINALITY AS w(scope_id, metric, period, n)
     LEFT JOIN usage_counters c USING (scope_id, metric, period)
     ORDER BY w.n`,
    [counters.map((c) => c.scopeId), counters.map((c) => c.metric), counters.map((c) => c.period)],
  );
  return rows.map((row) => row.value ?? 0);
}
