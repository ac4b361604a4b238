import type { Pool, PoolClient } from '@engage/postgres';
import type { Period } from '../domain/periods.ts';

type Queryable = Pool | PoolClient;

export interface StoredPeriod extends Period {
  environmentId: string;
  boardKey: string;
  state: 'open' | 'settled';
  participants: number | null;
}

interface PeriodRecord {
  environment_id: string;
  board_key: string;
  period_start: Date;
  period_end: Date | null;
  state: 'open' | 'settled';
  participants: number | null;
}

export const toPeriod = (r: PeriodRecord): StoredPeriod => ({
  environmentId: r.environment_id,
  boardKey: r.board_key,
  start: r.period_start.getTime(),
  end: r.period_end?.getTime() ?? null,
  state: r.state,
  participants: r.participants,
});

export interface BoardRef {
  environmentId: string;
  boardKey: string;
}

/** The newest few periods of each board (enough to place a batch's events and see cuts). */
export async function recentPeriods(db: Queryable, boards: readonly BoardRef[]): Promise<StoredPeriod[]> {
  if (boards.length === 0) return [];
  const { rows } = await db.query<PeriodRecord>(
    `SELECT p.* FROM unnest($1::uuid[], $2::text[]) AS b(environment_id, board_key)
     CROSS JOIN LATERAL (
       SELECT environment_id, board_key, period_start, period_end, state, participants FROM board_periods
       WHERE environment_id = b.environment_id AND board_key = b.board_key
       ORDER BY period_start DESC LIMIT 3) p`,
    [boards.map((b) => b.environmentId), boards.map((b) => b.boardKey)],
  );
  return rows.map(toPeriod);
}

/**
 * Creates the periods a batch scores into (if new) and holds them FOR SHARE until the commit, so a
 * settlement (FOR UPDATE) waits for the batch or the batch sees the period settled. Locks are taken
 * in key order. Returns the state of each.
 */
export async function openPeriodsForScoring(
  client: PoolClient,
  periods: readonly (BoardRef & Period & { organizationId: string })[],
): Promise<StoredPeriod[]> {
  if (periods.length === 0) return [];
  const args = [
    periods.map((p) => p.environmentId),
    periods.map((p) => p.boardKey),
    periods.map((p) => new Date(p.start).toISOString()),
    periods.map((p) => (p.end === null ? null : new Date(p.end).toISOString())),
    periods.map((p) => p.organizationId),
  ];
  await client.query(
    `INSERT INTO board_periods (environment_id, board_key, period_start, period_end, organization_id)
     SELECT * FROM unnest($1::uuid[], $2::text[], $3::timestamptz[], $4::timestamptz[], $5::uuid[])
     ORDER BY 1, 2, 3
     ON CONFLICT DO NOTHING`,
    args,
  );
  const { rows } = await client.query<PeriodRecord>(
    `SELECT p.environment_id, p.board_key, p.period_start, p.period_end, p.state, p.participants
     FROM board_periods p JOIN unnest($1::uuid[], $2::text[], $3::timestamptz[]) AS k(environment_id, board_key, period_start)
       USING (environment_id, board_key, period_start)
     ORDER BY p.environment_id, p.board_key, p.period_start
     FOR SHARE OF p`,
    args.slice(0, 3),
  );
  return rows.map(toPeriod);
}

/** The newest settled period of a board. */
export async function lastSettledPeriod(db: Queryable, board: BoardRef): Promise<StoredPeriod | undefined> {
  const { rows } = await db.query<PeriodRecord>(
    `SELECT environment_id, board_key, period_start, period_end, state, participants FROM board_periods
     WHERE environment_id = $1 AND board_key = $2 AND state = 'settled'
     ORDER BY period_start DESC LIMIT 1`,
    [board.environmentId, board.boardKey],
  );
  return rows[0] && toPeriod(rows[0]);
}

/** The newest period of a board that started at or before `at`. */
export async function latestPeriodBefore(
  db: Queryable,
  board: BoardRef,
  at: number,
): Promise<StoredPeriod | undefined> {
  const { rows } = await db.query<PeriodRecord>(
    `SELECT environment_id, board_key, period_start, period_end, state, participants FROM board_periods
     WHERE environment_id = $1 AND board_key = $2 AND period_start <= $3
     ORDER BY period_start DESC LIMIT 1`,
    [board.environmentId, board.boardKey, new Date(at).toISOString()],
  );
  return rows[0] && toPeriod(rows[0]);
}
