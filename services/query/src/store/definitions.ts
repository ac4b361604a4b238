import {
  type LeaderboardDefinition,
  LeaderboardDefinitionSchema,
} from '@engage/contracts/environment/leaderboards.ts';
import { execute, type Pool, type PoolClient } from '@engage/postgres';
import { db } from './tables.ts';

type Queryable = Pool | PoolClient;

/** Every board of the given environments, parsed (definitions were validated when applied). */
export async function loadDefinitions(
  db: Queryable,
  environmentIds: readonly string[],
): Promise<Map<string, LeaderboardDefinition[]>> {
  const versioned = await loadVersionedDefinitions(db, environmentIds);
  return new Map([...versioned].map(([id, { boards }]) => [id, boards]));
}

/** An environment's boards and the fingerprint of the rows they were read from. */
export interface VersionedDefinitions {
  boards: LeaderboardDefinition[];
  fingerprint: string;
}

/**
 * What changes whenever an environment's definitions do: each board's key with the transaction that
 * last wrote its row (`xmin`), in key order. An apply that adds, changes or removes a board changes
 * it; an apply that changes nothing writes no row (replaceDefinitions) and leaves it. An environment
 * without boards has none (its fingerprint is '').
 */
export const DEFINITIONS_FINGERPRINT = `string_agg(board_key || ':' || xmin::text, ',' ORDER BY board_key)`;

/** loadDefinitions with each environment's fingerprint (see DEFINITIONS_FINGERPRINT). */
export async function loadVersionedDefinitions(
  db: Queryable,
  environmentIds: readonly string[],
): Promise<Map<string, VersionedDefinitions>> {
  const byEnvironment = new Map<string, VersionedDefinitions>(
    environmentIds.map((id) => [id, { boards: [], fingerprint: '' }]),
  );
  if (environmentIds.length === 0) return byEnvironment;
  const { rows } = await db.query<{ environment_id: string; fingerprint: string; definition: unknown }>(
    `WITH versions AS (
       SELECT environment_id, ${DEFINITIONS_FINGERPRINT} AS fingerprint FROM leaderboard_definitions
       WHERE environment_id = ANY($1::uuid[]) GROUP BY environment_id)
     SELECT environment_id, fingerprint, definition FROM leaderboard_definitions JOIN versions USING (environment_id)
     WHERE environment_id = ANY($1::uuid[]) ORDER BY board_key`,
    [environmentIds],
  );
  for (const row of rows) {
    const entry = byEnvironment.get(row.environment_id);
    if (!entry) continue;
    entry.boards.push(LeaderboardDefinitionSchema.parse(row.definition));
    entry.fingerprint = row.fingerprint;
  }
  return byEnvironment;
}

/** Serializes applies of one environment's definitions until the transaction ends. */
export async function lockDefinitions(client: PoolClient, environmentId: string): Promise<void> {
  await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`leaderboards:${environmentId}`]);
}

/** Replaces an environment's boards with `boards` (absent keys are removed). */
export async function replaceDefinitions(
  client: PoolClient,
  environmentId: string,
  boards: readonly LeaderboardDefinition[],
): Promise<void> {
  await client.query(
    'DELETE FROM leaderboard_definitions WHERE environment_id = $1 AND NOT (board_key = ANY($2::text[]))',
    [environmentId, boards.map((b) => b.key)],
  );
  if (boards.length === 0) return;
  await client.query(
    `INSERT INTO leaderboard_definitions (environment_id, board_key, definition)
     SELECT $1, * FROM unnest($2::text[], $3::jsonb[])
     ON CONFLICT (environment_id, board_key) DO UPDATE SET definition = EXCLUDED.definition, updated_at = now()
     WHERE leaderboard_definitions.definition IS DISTINCT FROM EXCLUDED.definition`,
    [environmentId, boards.map((b) => b.key), boards.map((b) => JSON.stringify(b))],
  );
}

/**
 * Definitions seen by reads and mirrors, cached per environment for `ttlMs`: a change applied on
 * another replica is seen within that time (on this replica at once: `forget`).
 */
export class DefinitionCache {
  private readonly entries = new Map<string, { at: number; boards: Promise<LeaderboardDefinition[]> }>();
  private readonly pool: Pool;
  private readonly ttlMs: number;

  constructor(pool: Pool, ttlMs: number) {
    this.pool = pool;
    this.ttlMs = ttlMs;
  }

  boards(environmentId: string): Promise<LeaderboardDefinition[]> {
    const cached = this.entries.get(environmentId);
    if (cached && performance.now() - cached.at < this.ttlMs) return cached.boards;
    const boards = loadDefinitions(this.pool, [environmentId]).then((m) => m.get(environmentId) ?? []);
    boards.catch(() => this.entries.delete(environmentId));
    this.entries.set(environmentId, { at: performance.now(), boards });
    return boards;
  }

  async board(environmentId: string, key: string): Promise<LeaderboardDefinition | undefined> {
    return (await this.boards(environmentId)).find((b) => b.key === key);
  }

  forget(environmentId: string): void {
    this.entries.delete(environmentId);
  }
}

/** What readers and mirrors need of the definitions (a DefinitionCache, or a fixed list in unit tests). */
export type Definitions = Pick<DefinitionCache, 'board' | 'boards' | 'forget'>;

/** One board's definition as stored now (read inside a settlement's transaction). */
export async function loadDefinition(
  conn: Queryable,
  environmentId: string,
  boardKey: string,
): Promise<LeaderboardDefinition | undefined> {
  const [row] = await execute(
    conn,
    db
      .selectFrom('leaderboard_definitions')
      .select('definition')
      .where('environment_id', '=', environmentId)
      .where('board_key', '=', boardKey),
  );
  return row ? LeaderboardDefinitionSchema.parse(row.definition) : undefined;
}
