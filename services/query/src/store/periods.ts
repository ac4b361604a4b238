import { execute, type Pool, type PoolClient } from '@engage/postgres';
import type { Period } from '../domain/periods.ts';
import { DEFINITIONS_FINGERPRINT } from './definitions.ts';
import { db } from './tables.ts';

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

type PeriodKey = BoardRef & Period & { organizationId: string };

/**
 * Creates the periods a batch scores into (if new) and holds them FOR SHARE until the commit, so a
 * settlement (FOR UPDATE) waits for the batch or the batch sees the period settled. Locks are taken
 * in key order. Returns the state of each.
 */
export async function openPeriodsForScoring(
  client: PoolClient,
  periods: readonly PeriodKey[],
): Promise<StoredPeriod[]> {
  await createPeriods(client, periods);
  return (await lockPeriods(client, periods, [])).periods;
}

/** Inserts the periods that are not stored yet (a period somebody scored in first). */
export async function createPeriods(client: PoolClient, periods: readonly PeriodKey[]): Promise<void> {
  if (periods.length === 0) return;
  await client.query(
    `INSERT INTO board_periods (environment_id, board_key, period_start, period_end, organization_id)
     SELECT * FROM unnest($1::uuid[], $2::text[], $3::timestamptz[], $4::timestamptz[], $5::uuid[])
     ORDER BY 1, 2, 3
     ON CONFLICT DO NOTHING`,
    [
      periods.map((p) => p.environmentId),
      periods.map((p) => p.boardKey),
      periods.map((p) => new Date(p.start).toISOString()),
      periods.map((p) => (p.end === null ? null : new Date(p.end).toISOString())),
      periods.map((p) => p.organizationId),
    ],
  );
}

/**
 * Holds the stored ones of `periods` FOR SHARE until the commit (in key order) and returns them as
 * stored, in the same statement reading the fingerprint of `environmentIds`' definitions (see
 * DEFINITIONS_FINGERPRINT; environments without boards are absent).
 */
export async function lockPeriods(
  client: PoolClient,
  periods: readonly (BoardRef & Period)[],
  environmentIds: readonly string[],
): Promise<{ periods: StoredPeriod[]; fingerprints: Map<string, string> }> {
  const { rows } = await client.query<PeriodRecord & { fingerprint: string | null }>({
    name: 'query-lock-periods',
    text: `WITH locked AS (
       SELECT p.environment_id, p.board_key, p.period_start, p.period_end, p.state, p.participants
       FROM board_periods p JOIN unnest($1::uuid[], $2::text[], $3::timestamptz[]) AS k(environment_id, board_key, period_start)
         USING (environment_id, board_key, period_start)
       ORDER BY p.environment_id, p.board_key, p.period_start
       FOR SHARE OF p)
     SELECT *, NULL::text AS fingerprint FROM locked
     UNION ALL
     SELECT environment_id, NULL, NULL, NULL, NULL, NULL, ${DEFINITIONS_FINGERPRINT}
     FROM leaderboard_definitions WHERE environment_id = ANY($4::uuid[]) GROUP BY environment_id`,
    values: [
      periods.map((p) => p.environmentId),
      periods.map((p) => p.boardKey),
      periods.map((p) => new Date(p.start).toISOString()),
      environmentIds,
    ],
  });
  const fingerprints = new Map<string, string>();
  const stored: StoredPeriod[] = [];
  for (const row of rows) {
    if (row.fingerprint === null) stored.push(toPeriod(row));
    else fingerprints.set(row.environment_id, row.fingerprint);
  }
  return { periods: stored, fingerprints };
}

const PERIOD_COLUMNS = [
  'environment_id',
  'board_key',
  'period_start',
  'period_end',
  'state',
  'participants',
] as const;

/** The newest settled period of a board. */
export async function lastSettledPeriod(conn: Queryable, board: BoardRef): Promise<StoredPeriod | undefined> {
  const [row] = await execute(
    conn,
    db
      .selectFrom('board_periods')
      .select(PERIOD_COLUMNS)
      .where('environment_id', '=', board.environmentId)
      .where('board_key', '=', board.boardKey)
      .where('state', '=', 'settled')
      .orderBy('period_start', 'desc')
      .limit(1),
  );
  return row && toPeriod(row);
}

/** The newest period of a board that started at or before `at`. */
export async function latestPeriodBefore(
  conn: Queryable,
  board: BoardRef,
  at: number,
): Promise<StoredPeriod | undefined> {
  const [row] = await execute(
    conn,
    db
      .selectFrom('board_periods')
      .select(PERIOD_COLUMNS)
      .where('environment_id', '=', board.environmentId)
      .where('board_key', '=', board.boardKey)
      .where('period_start', '<=', new Date(at))
      .orderBy('period_start', 'desc')
      .limit(1),
  );
  return row && toPeriod(row);
}

/** A period row claimed FOR UPDATE for settling. */
export interface ClaimedPeriod {
  environment_id: string;
  board_key: string;
  period_start: Date;
  period_end: Date | null;
  organization_id: string;
  state: 'open' | 'settled';
  participants: number | null;
  /** The end the live board's ticks were computed with: the end before an on-demand cut. */
  ticks_end: Date | null;
}

/**
 * Claims the open period that ended longest ago (at least `graceMs` ago, so late-consumed events of
 * it still score), skipping periods another replica is settling. Holds the row FOR UPDATE until the
 * caller's transaction ends: a crash rolls the whole settlement back and another replica redoes it.
 */
export async function claimDuePeriod(
  client: PoolClient,
  graceMs: number,
  environmentId?: string,
): Promise<ClaimedPeriod | undefined> {
  const { rows } = await client.query<ClaimedPeriod>(
    `SELECT environment_id, board_key, period_start, period_end, organization_id, state, participants,
       period_end AS ticks_end FROM board_periods
     WHERE state = 'open' AND period_end <= now() - make_interval(secs => $1::float8 / 1000)
       AND ($2::uuid IS NULL OR environment_id = $2)
     ORDER BY period_end LIMIT 1 FOR UPDATE SKIP LOCKED`,
    [graceMs, environmentId ?? null],
  );
  return rows[0];
}

/**
 * Locks the period in progress of a board for an on-demand settle (sandbox): creates it if nobody
 * scored yet, and cuts it at now. Waits for a scoring batch or another settle holding it to commit;
 * undefined when the period is no longer open then (a concurrent settle closed it).
 */
export async function claimCurrentPeriod(
  client: PoolClient,
  period: {
    environmentId: string;
    boardKey: string;
    start: number;
    end: number | null;
    organizationId: string;
  },
): Promise<ClaimedPeriod | undefined> {
  await client.query(
    `INSERT INTO board_periods (environment_id, board_key, period_start, period_end, organization_id)
     VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING`,
    [
      period.environmentId,
      period.boardKey,
      new Date(period.start).toISOString(),
      period.end === null ? null : new Date(period.end).toISOString(),
      period.organizationId,
    ],
  );
  const { rows } = await client.query<ClaimedPeriod>(
    `WITH uncut AS (
       SELECT period_end FROM board_periods
       WHERE environment_id = $1 AND board_key = $2 AND period_start = $3 AND state = 'open' FOR UPDATE)
     UPDATE board_periods SET period_end = LEAST(coalesce(period_end, 'infinity'), now())
     WHERE environment_id = $1 AND board_key = $2 AND period_start = $3 AND state = 'open'
     RETURNING environment_id, board_key, period_start, period_end, organization_id, state, participants,
       (SELECT period_end FROM uncut) AS ticks_end`,
    [period.environmentId, period.boardKey, new Date(period.start).toISOString()],
  );
  return rows[0];
}

/** One stored period of a board, by its start. */
export async function storedPeriod(
  conn: Queryable,
  period: BoardRef & { periodStart: number },
): Promise<StoredPeriod | undefined> {
  const [row] = await execute(
    conn,
    db
      .selectFrom('board_periods')
      .select(PERIOD_COLUMNS)
      .where('environment_id', '=', period.environmentId)
      .where('board_key', '=', period.boardKey)
      .where('period_start', '=', new Date(period.periodStart)),
  );
  return row && toPeriod(row);
}

/** Marks a claimed period settled with its number of participants (it leaves the live boards). */
export async function markPeriodSettled(
  client: PoolClient,
  period: BoardRef & { periodStart: number },
  participants: number,
): Promise<void> {
  await execute(
    client,
    db
      .updateTable('board_periods')
      .set((eb) => ({ state: 'settled', settled_at: eb.fn<Date>('now'), participants }))
      .where('environment_id', '=', period.environmentId)
      .where('board_key', '=', period.boardKey)
      .where('period_start', '=', new Date(period.periodStart)),
  );
}

/** A board's newest periods, open and settled, newest first. */
export async function newestPeriods(
  conn: Queryable,
  board: BoardRef,
  limit: number,
): Promise<StoredPeriod[]> {
  const rows = await execute(
    conn,
    db
      .selectFrom('board_periods')
      .select(PERIOD_COLUMNS)
      .where('environment_id', '=', board.environmentId)
      .where('board_key', '=', board.boardKey)
      .orderBy('period_start', 'desc')
      .limit(limit),
  );
  return rows.map(toPeriod);
}
