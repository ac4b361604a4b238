import { execute, type Pool, type PoolClient } from '@engage/postgres';
import type { ScoreDelta } from '../domain/scoring.ts';
import { arrayLiteral } from './array-literal.ts';
import { isoFormatter } from './iso-time.ts';
import { openTicketFor } from './mirror-tickets.ts';
import { db } from './tables.ts';

type Queryable = Pool | PoolClient;

/** A player's committed score in one period: what Redis mirrors. */
export interface ScoreRow {
  environmentId: string;
  boardKey: string;
  periodStart: number;
  playerId: string;
  score: number;
  /** Exact decimal text. */
  exactScore: string;
  reachedAt: number;
  teamKey: string | null;
  tier: number | null;
  groupNo: number | null;
  periodEnd: number | null;
}

/** A score row as selected: times as epoch ms (float8 arrives as a number; no date text to parse per row). */
interface ScoreRecord {
  environment_id: string;
  board_key: string;
  period_start_ms: number;
  player_id: string;
  score: string;
  reached_at_ms: number;
  team_key: string | null;
  tier: number | null;
  group_no: number | null;
  period_end_ms: number | null;
}

const toScoreRow = (r: ScoreRecord): ScoreRow => ({
  environmentId: r.environment_id,
  boardKey: r.board_key,
  periodStart: r.period_start_ms,
  playerId: r.player_id,
  score: Number(r.score),
  exactScore: r.score,
  reachedAt: r.reached_at_ms,
  teamKey: r.team_key,
  tier: r.tier,
  groupNo: r.group_no,
  periodEnd: r.period_end_ms,
});

/** A timestamptz as epoch ms (exact: the numeric product is cast, not a float's). */
const epochMs = (column: string) => `(extract(epoch FROM ${column}) * 1000)::float8`;

const SCORE_COLUMNS = `s.environment_id, s.board_key, ${epochMs('s.period_start')} AS period_start_ms, s.player_id,
  trim_scale(s.score)::text AS score, ${epochMs('s.reached_at')} AS reached_at_ms, s.team_key, s.tier, s.group_no,
  ${epochMs('p.period_end')} AS period_end_ms`;
const WITH_PERIOD = 'JOIN board_periods p USING (environment_id, board_key, period_start)';

export interface LeaguePlacement {
  tier: number;
  groupNo: number;
}

/** A board's period as a batch scores into it: what all its deltas share. */
export interface ScoredPeriod {
  environmentId: string;
  boardKey: string;
  periodStart: number;
  /** As stored (the period is held FOR SHARE, so it stays so until the commit). */
  periodEnd: number | null;
}

/**
 * Merges a batch's deltas into the stored scores: sums and counts add, Max and Min keep the better
 * value, Latest replaces. reached_at moves only when the score does (Max/Min) or with every event
 * (the others). `placements` gives league players joining the period their group. One statement per
 * period, sent together, each opening a mirror ticket listing the rows it changed. Returns the merged
 * rows as they will be committed (what Redis mirrors after the commit) and the tickets.
 */
export async function mergeScores(
  client: PoolClient,
  deltas: readonly ScoreDelta[],
  placements: ReadonlyMap<ScoreDelta, LeaguePlacement>,
  periodOf: (delta: ScoreDelta) => ScoredPeriod,
): Promise<{ rows: ScoreRow[]; ticketIds: string[] }> {
  const merged = await Promise.all(
    byPeriod(deltas, periodOf).map(([period, members]) =>
      mergePeriodScores(client, period, members, placements),
    ),
  );
  return {
    rows: merged.flatMap((m) => m.rows),
    ticketIds: merged.flatMap((m) => (m.ticketId === null ? [] : [m.ticketId])),
  };
}

/**
 * The deltas grouped by period, the periods in key order: with each statement's players in byte order
 * (COLLATE "C"), every transaction locks score rows in one order.
 */
function byPeriod(
  deltas: readonly ScoreDelta[],
  periodOf: (delta: ScoreDelta) => ScoredPeriod,
): [ScoredPeriod, ScoreDelta[]][] {
  const groups = new Map<ScoredPeriod, ScoreDelta[]>();
  for (const d of deltas) {
    const period = periodOf(d);
    const members = groups.get(period);
    if (members) members.push(d);
    else groups.set(period, [d]);
  }
  const byteOrder = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  return [...groups].sort(
    ([a], [b]) =>
      byteOrder(a.environmentId, b.environmentId) ||
      byteOrder(a.boardKey, b.boardKey) ||
      a.periodStart - b.periodStart,
  );
}

/**
 * What the period's rows share goes once, as scalars; per row only the player, the value and its
 * time (epoch ms, converted by Postgres); team keys and league placements only when some row has
 * one (unnest pads an empty array with nulls). The merged rows come back raw: the key and the
 * period's end are the caller's, the score's trailing zeros are trimmed here.
 */
const MERGE_PERIOD_SCORES = `WITH merged AS (
    INSERT INTO board_scores AS s
      (environment_id, board_key, period_start, player_id, aggregation, score, reached_at, team_key, tier, group_no)
    SELECT $1::uuid, $2::text, $3::timestamptz, d.player_id, $4::text, d.score, to_timestamp(d.reached_ms / 1000),
      d.team_key, d.tier, d.group_no
    FROM unnest($5::text[], $6::numeric[], $7::float8[], $8::text[], $9::int[], $10::int[])
      AS d(player_id, score, reached_ms, team_key, tier, group_no)
    ORDER BY d.player_id COLLATE "C"
    ON CONFLICT (environment_id, board_key, period_start, player_id) DO UPDATE SET
      score = CASE s.aggregation
        WHEN 'Max' THEN GREATEST(s.score, EXCLUDED.score)
        WHEN 'Min' THEN LEAST(s.score, EXCLUDED.score)
        WHEN 'Latest' THEN EXCLUDED.score
        ELSE s.score + EXCLUDED.score END,
      reached_at = CASE
        WHEN s.aggregation = 'Max' AND EXCLUDED.score <= s.score THEN s.reached_at
        WHEN s.aggregation = 'Min' AND EXCLUDED.score >= s.score THEN s.reached_at
        ELSE EXCLUDED.reached_at END,
      team_key = coalesce(s.team_key, EXCLUDED.team_key),
      updated_at = now()
    RETURNING s.environment_id, s.board_key, s.period_start, s.player_id, s.score, s.reached_at, s.team_key,
      s.tier, s.group_no
  ),
  ticket AS (${openTicketFor('merged')})
  SELECT player_id, score, date_part('epoch', reached_at) AS reached_at_s, team_key, tier, group_no,
    (SELECT ticket_id::text FROM ticket) AS ticket_id
  FROM merged`;

async function mergePeriodScores(
  client: PoolClient,
  period: ScoredPeriod,
  deltas: readonly ScoreDelta[],
  placements: ReadonlyMap<ScoreDelta, LeaguePlacement>,
): Promise<{ rows: ScoreRow[]; ticketId: string | null }> {
  const placed = deltas.map((d) => placements.get(d));
  const { rows } = await client.query<{
    player_id: string;
    score: string;
    reached_at_s: number;
    team_key: string | null;
    tier: number | null;
    group_no: number | null;
    ticket_id: string;
  }>({
    name: 'query-merge-period-scores',
    text: MERGE_PERIOD_SCORES,
    values: [
      period.environmentId,
      period.boardKey,
      new Date(period.periodStart).toISOString(),
      deltas[0]!.aggregation,
      deltas.map((d) => d.playerId),
      arrayLiteral(deltas.map((d) => d.value)),
      arrayLiteral(deltas.map((d) => d.reachedAt)),
      deltas.some((d) => d.teamKey !== null) ? deltas.map((d) => d.teamKey) : [],
      arrayLiteral(placed.some(Boolean) ? placed.map((p) => p?.tier ?? null) : []),
      arrayLiteral(placed.some(Boolean) ? placed.map((p) => p?.groupNo ?? null) : []),
    ],
  });
  return {
    rows: rows.map((r) => {
      const score = trimScale(r.score);
      return {
        environmentId: period.environmentId,
        boardKey: period.boardKey,
        periodStart: period.periodStart,
        playerId: r.player_id,
        score: Number(score),
        exactScore: score,
        // Every stored time is a whole millisecond: rounding undoes the float's inexact seconds.
        reachedAt: Math.round(r.reached_at_s * 1000),
        teamKey: r.team_key,
        tier: r.tier,
        groupNo: r.group_no,
        periodEnd: period.periodEnd,
      };
    }),
    ticketId: rows[0]?.ticket_id ?? null,
  };
}

/** A numeric's text without the trailing fraction zeros of its scale (what trim_scale writes). */
function trimScale(text: string): string {
  if (!text.includes('.')) return text;
  let end = text.length;
  while (text.charCodeAt(end - 1) === 48) end--;
  if (text.charCodeAt(end - 1) === 46) end--;
  return text.slice(0, end);
}

/** Which of the deltas' players already have a row in their period (league players keep their group). */
export async function existingPlayers(
  client: PoolClient,
  deltas: readonly ScoreDelta[],
): Promise<Set<string>> {
  if (deltas.length === 0) return new Set();
  const periodIso = isoFormatter();
  const { rows } = await client.query<{
    environment_id: string;
    board_key: string;
    period_start: Date;
    player_id: string;
  }>(
    `SELECT s.environment_id, s.board_key, s.period_start, s.player_id
     FROM board_scores s JOIN unnest($1::uuid[], $2::text[], $3::timestamptz[], $4::text[]) AS d(environment_id, board_key, period_start, player_id)
       USING (environment_id, board_key, period_start, player_id)`,
    [
      deltas.map((d) => d.environmentId),
      deltas.map((d) => d.boardKey),
      deltas.map((d) => periodIso(d.periodStart)),
      deltas.map((d) => d.playerId),
    ],
  );
  return new Set(
    rows.map((r) =>
      playerPeriodKey({
        environmentId: r.environment_id,
        boardKey: r.board_key,
        periodStart: r.period_start.getTime(),
        playerId: r.player_id,
      }),
    ),
  );
}

export const playerPeriodKey = (
  d: Pick<ScoreDelta, 'environmentId' | 'boardKey' | 'periodStart' | 'playerId'>,
) => JSON.stringify([d.environmentId, d.boardKey, d.periodStart, d.playerId]);

/** Players' current tiers on league boards (absent: the lowest, 0). */
export async function currentTiers(
  client: PoolClient,
  players: readonly { environmentId: string; boardKey: string; playerId: string }[],
): Promise<Map<string, number>> {
  if (players.length === 0) return new Map();
  const { rows } = await client.query<{
    environment_id: string;
    board_key: string;
    player_id: string;
    tier: number;
  }>(
    `SELECT t.environment_id, t.board_key, t.player_id, t.tier FROM league_tiers t
     JOIN unnest($1::uuid[], $2::text[], $3::text[]) AS k(environment_id, board_key, player_id)
       USING (environment_id, board_key, player_id)`,
    [players.map((p) => p.environmentId), players.map((p) => p.boardKey), players.map((p) => p.playerId)],
  );
  return new Map(rows.map((r) => [JSON.stringify([r.environment_id, r.board_key, r.player_id]), r.tier]));
}

/** Reserves `count` arrivals in a tier's groups for a period; returns the 0-based arrival of the first. */
export async function reserveArrivals(
  client: PoolClient,
  slot: { environmentId: string; boardKey: string; periodStart: number; tier: number },
  count: number,
): Promise<number> {
  const { rows } = await client.query<{ joined: number }>(
    `INSERT INTO league_group_fill (environment_id, board_key, period_start, tier, joined) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (environment_id, board_key, period_start, tier) DO UPDATE SET joined = league_group_fill.joined + EXCLUDED.joined
     RETURNING joined`,
    [slot.environmentId, slot.boardKey, new Date(slot.periodStart).toISOString(), slot.tier, count],
  );
  return (rows[0]?.joined ?? count) - count;
}

/** The committed rows of the given players and periods (with `openOnly`, of periods not settled). */
export async function readScores(
  db: Queryable,
  keys: readonly Pick<ScoreDelta, 'environmentId' | 'boardKey' | 'periodStart' | 'playerId'>[],
  options: { openOnly?: boolean } = {},
): Promise<ScoreRow[]> {
  if (keys.length === 0) return [];
  const periodIso = isoFormatter();
  const { rows } = await db.query<ScoreRecord>(
    // One primary-key lookup per key and table, whatever the planner believes about their sizes:
    // OFFSET 0 keeps each LATERAL subquery from being pulled up into a join, which a table filled
    // since its last ANALYZE turns into a scan of the whole period for every key.
    `SELECT ${SCORE_COLUMNS}
     FROM unnest($1::uuid[], $2::text[], $3::timestamptz[], $4::text[]) AS k(environment_id, board_key, period_start, player_id)
     CROSS JOIN LATERAL (SELECT * FROM board_scores s
       WHERE s.environment_id = k.environment_id AND s.board_key = k.board_key
         AND s.period_start = k.period_start AND s.player_id = k.player_id OFFSET 0) s
     CROSS JOIN LATERAL (SELECT p.period_end, p.state FROM board_periods p
       WHERE p.environment_id = k.environment_id AND p.board_key = k.board_key
         AND p.period_start = k.period_start OFFSET 0) p
     WHERE NOT $5::boolean OR p.state = 'open'`,
    [
      keys.map((k) => k.environmentId),
      keys.map((k) => k.boardKey),
      keys.map((k) => periodIso(k.periodStart)),
      keys.map((k) => k.playerId),
      options.openOnly ?? false,
    ],
  );
  return rows.map(toScoreRow);
}

/** One player's row in a period. */
export async function findScore(
  db: Queryable,
  key: { environmentId: string; boardKey: string; periodStart: number; playerId: string },
): Promise<ScoreRow | undefined> {
  return (await readScores(db, [key]))[0];
}

/** One page of an environment's scores in open periods, in key order after `after` (rebuilds). */
export async function openPeriodScores(
  pool: Pool,
  environmentId: string,
  after: ScoreRow | undefined,
  limit: number,
  changedSince?: Date,
): Promise<ScoreRow[]> {
  const { rows } = await pool.query<ScoreRecord>(
    `SELECT ${SCORE_COLUMNS} FROM board_scores s ${WITH_PERIOD}
     WHERE s.environment_id = $1 AND p.state = 'open'
       AND ($2::text IS NULL OR (s.board_key, s.period_start, s.player_id) > ($2, $3::timestamptz, $4))
       AND ($6::timestamptz IS NULL OR s.updated_at >= $6)
     ORDER BY s.board_key, s.period_start, s.player_id LIMIT $5`,
    [
      environmentId,
      after?.boardKey ?? null,
      after ? new Date(after.periodStart).toISOString() : null,
      after?.playerId ?? null,
      limit,
      changedSince?.toISOString() ?? null,
    ],
  );
  return rows.map(toScoreRow);
}

export interface TeamTotal {
  environmentId: string;
  boardKey: string;
  periodStart: number;
  periodEnd: number | null;
  teamKey: string;
  score: number;
  exactScore: string;
  reachedAt: number;
}

/** A team's score is the sum of its members'; it was reached when the last member's score changed. */
export async function teamTotals(
  db: Queryable,
  teams: readonly { environmentId: string; boardKey: string; periodStart: number; teamKey?: string | null }[],
): Promise<TeamTotal[]> {
  if (teams.length === 0) return [];
  const { rows } = await db.query<{
    environment_id: string;
    board_key: string;
    period_start: Date;
    period_end: Date | null;
    team_key: string;
    score: string;
    reached_at: Date;
  }>(
    `SELECT s.environment_id, s.board_key, s.period_start, p.period_end, s.team_key,
       trim_scale(sum(s.score))::text AS score, max(s.reached_at) AS reached_at
     FROM board_scores s ${WITH_PERIOD}
     JOIN (SELECT DISTINCT * FROM unnest($1::uuid[], $2::text[], $3::timestamptz[], $4::text[])) AS k(environment_id, board_key, period_start, team_key)
       ON (s.environment_id, s.board_key, s.period_start) = (k.environment_id, k.board_key, k.period_start)
       AND (k.team_key IS NULL OR s.team_key = k.team_key)
     WHERE s.team_key IS NOT NULL
     GROUP BY s.environment_id, s.board_key, s.period_start, p.period_end, s.team_key`,
    [
      teams.map((t) => t.environmentId),
      teams.map((t) => t.boardKey),
      teams.map((t) => new Date(t.periodStart).toISOString()),
      teams.map((t) => t.teamKey ?? null),
    ],
  );
  return rows.map((r) => ({
    environmentId: r.environment_id,
    boardKey: r.board_key,
    periodStart: r.period_start.getTime(),
    periodEnd: r.period_end?.getTime() ?? null,
    teamKey: r.team_key,
    score: Number(r.score),
    exactScore: r.score,
    reachedAt: r.reached_at.getTime(),
  }));
}

/** Stores display names (newest wins). */
export async function saveDisplayNames(
  db: Queryable,
  names: readonly { environmentId: string; playerId: string; displayName: string }[],
): Promise<void> {
  if (names.length === 0) return;
  await db.query(
    `INSERT INTO player_display_names (environment_id, player_id, display_name)
     SELECT * FROM unnest($1::uuid[], $2::text[], $3::text[]) ORDER BY 1, 2
     ON CONFLICT (environment_id, player_id) DO UPDATE SET display_name = EXCLUDED.display_name, updated_at = now()
     WHERE player_display_names.display_name <> EXCLUDED.display_name`,
    [names.map((n) => n.environmentId), names.map((n) => n.playerId), names.map((n) => n.displayName)],
  );
}

/** An environment's stored display names (of `playerIds` only, when given), by player id. */
export async function displayNames(conn: Queryable, environmentId: string, playerIds?: readonly string[]) {
  let query = db
    .selectFrom('player_display_names')
    .select(['player_id', 'display_name'])
    .where('environment_id', '=', environmentId);
  if (playerIds) query = query.where('player_id', '=', (eb) => eb.fn.any(eb.val([...playerIds])));
  const rows = await execute(conn, query);
  return new Map(rows.map((r) => [r.player_id, r.display_name]));
}

/** One player's tier on a league board for periods to come (0, the lowest, until settled otherwise). */
export async function currentTiersOf(
  conn: Queryable,
  environmentId: string,
  boardKey: string,
  playerId: string,
) {
  const [row] = await execute(
    conn,
    db
      .selectFrom('league_tiers')
      .select('tier')
      .where('environment_id', '=', environmentId)
      .where('board_key', '=', boardKey)
      .where('player_id', '=', playerId),
  );
  return row?.tier ?? 0;
}

/** The league groups (tier, group) a period's players joined. */
export async function leagueGroupsOf(
  conn: Queryable,
  period: { environmentId: string; boardKey: string; periodStart: number },
): Promise<{ tier: number; groupNo: number }[]> {
  const rows = await execute(
    conn,
    db
      .selectFrom('board_scores')
      .select(['tier', 'group_no'])
      .distinct()
      .where('environment_id', '=', period.environmentId)
      .where('board_key', '=', period.boardKey)
      .where('period_start', '=', new Date(period.periodStart))
      .where('tier', 'is not', null)
      .where('group_no', 'is not', null),
  );
  return rows.map((g) => ({ tier: g.tier!, groupNo: g.group_no! }));
}
