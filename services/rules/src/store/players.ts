import type { PoolClient } from '@engage/postgres';
import type { ActivitySoFar, PlayerActivity } from '../domain/activity.ts';
import { activityParams } from './activity.ts';
import { plainArray } from './array-literals.ts';
import {
  createPlayerRows,
  entriesParams,
  entriesUpsert,
  keyOf,
  type PlayerRef,
  type ProgressCache,
  type ProgressWrite,
  readProgressRows,
  refParams,
  type StoredProgress,
  toStoredProgress,
} from './progress.ts';

/** What the consumer holds of one player during a batch. */
export interface LockedPlayer {
  /** The player's `keyOf`, built once per batch: the key of the cache and of the batch's groups. */
  key: string;
  /** Taken out of the cache (or read): the batch owns it until `savePlayers` puts it back. */
  stored: StoredProgress;
  /** The revision read with the lock. */
  revision: string;
  /** What the activity continues from; absent for a player no event was applied to before. */
  activity: ActivitySoFar | undefined;
  /** The player's environment's definition version, read with the lock (for `RulesCache.atVersion`). */
  rulesVersion: string | null;
}

interface LockRow {
  environment_id: string;
  player_id: string;
  revision: string;
  events_applied: number;
  last_occurred_at: Date | null;
  applied_events_digest: string;
  rules_version: string | null;
}

/**
 * Locks the batch's players' `player_counters` rows (in key order), reading their activity,
 * revision and environment's definition version with the lock. Players the cache does not hold
 * have their row created first; a player it holds whose row is missing (the transaction that
 * created it rolled back) is created when the lock misses it. Only players whose revision moved
 * since they were cached are read in full. So a batch of known players costs one statement here.
 * Cached players are taken out of the cache: the batch folds their state in place, and
 * `savePlayers` puts every player back. `players` is keyed by `keyOf`.
 */
export async function lockPlayers(
  client: PoolClient,
  players: ReadonlyMap<string, PlayerRef>,
  cache: ProgressCache,
): Promise<LockedPlayer[]> {
  if (players.size === 0) return [];
  const refs = [...players.values()];
  await createPlayerRows(
    client,
    refsWhere(players, (key) => !cache.has(key)),
  );
  let rows = await lockRows(client, refs);
  if (rows.length < refs.length) {
    const found = new Set(rows.map(rowKey));
    const missing = refsWhere(players, (key) => !found.has(key));
    await createPlayerRows(client, missing);
    rows = rows.concat(await lockRows(client, missing));
  }
  const locked: (Omit<LockedPlayer, 'stored'> & { stored: StoredProgress | undefined })[] = rows.map(
    (row) => {
      const key = rowKey(row);
      return {
        key,
        stored: cache.take(key, row.revision),
        revision: row.revision,
        activity:
          row.events_applied > 0
            ? {
                eventsApplied: Number(row.events_applied),
                lastOccurredAt: row.last_occurred_at!.toISOString(),
                appliedEventsDigest: row.applied_events_digest,
              }
            : undefined,
        rulesVersion: row.rules_version,
      };
    },
  );
  const misses = locked.filter((player) => !player.stored);
  if (misses.length > 0) {
    const read = await readProgressRows(
      client,
      misses.map((player) => players.get(player.key)!),
    );
    const byKey = new Map(read.map((row) => [keyOf(refOf(row)), toStoredProgress(row)]));
    for (const player of misses) player.stored = byKey.get(player.key);
  }
  // The full read starts from the locked rows themselves, so it finds every player it is asked for.
  if (!locked.every((player): player is LockedPlayer => player.stored !== undefined))
    throw new Error('a locked player was not found by the full read of its progress');
  return locked;
}

const refOf = (row: { environment_id: string; player_id: string }): PlayerRef => ({
  environmentId: row.environment_id,
  playerId: row.player_id,
});
const rowKey = (row: LockRow) => keyOf(refOf(row));

function refsWhere(players: ReadonlyMap<string, PlayerRef>, keep: (key: string) => boolean): PlayerRef[] {
  const refs: PlayerRef[] = [];
  for (const [key, ref] of players) if (keep(key)) refs.push(ref);
  return refs;
}

async function lockRows(client: PoolClient, players: PlayerRef[]): Promise<LockRow[]> {
  const { rows } = await client.query<LockRow>(
    `SELECT environment_id, player_id, revision, events_applied, last_occurred_at, applied_events_digest,
       (SELECT version FROM definition_versions v WHERE v.environment_id = c.environment_id) AS rules_version
     FROM player_counters c
     WHERE (environment_id, player_id) IN (SELECT * FROM unnest($1::uuid[], $2::text[]))
     ORDER BY environment_id, player_id
     FOR UPDATE`,
    refParams(players),
  );
  return rows;
}

/** One player's writes of a batch: the new activity, and the progress write when progress moved. */
export interface PlayerWrite {
  /** The player as locked, returned to the cache as it is when its progress did not move. */
  locked: LockedPlayer;
  activity: PlayerActivity;
  progress: ProgressWrite | undefined;
}

/**
 * Writes the batch's players in one statement: each `player_counters` row gets its new activity,
 * and when progress moved its counters and a new revision (which the cache learns: should the
 * transaction roll back, those revisions never appear in the table and the next lock misses); entries and
 * streaks are written only for the players whose entries or streaks changed.
 */
export async function savePlayers(
  client: PoolClient,
  writes: PlayerWrite[],
  cache: ProgressCache,
): Promise<void> {
  if (writes.length === 0) return;
  // Only a write that moves progress needs a new revision: the cached progress of the others holds.
  const revisions = writes.map((w) => (w.progress ? crypto.randomUUID() : null));
  const progress = writes.flatMap((w) => (w.progress ? [w.progress] : []));
  const counters = `UPDATE player_counters c SET
       counters = coalesce(u.counters, c.counters), revision = coalesce(u.revision, c.revision),
       events_applied = u.events_applied, last_event_id = u.last_event_id, last_offset = u.last_offset,
       last_occurred_at = u.last_occurred_at, applied_events_digest = u.applied_events_digest,
       updated_at = now()
     FROM unnest($1::uuid[], $2::text[], $3::json[], $4::uuid[], $5::bigint[], $6::uuid[], $7::bigint[],
       $8::timestamptz[], $9::text[])
       AS u(environment_id, player_id, counters, revision, events_applied, last_event_id, last_offset,
         last_occurred_at, applied_events_digest)
     WHERE c.environment_id = u.environment_id AND c.player_id = u.player_id`;
  const params = [
    ...refParams(writes.map((w) => w.activity)),
    plainArray(writes.map((w) => w.progress?.counters ?? null)),
    plainArray(revisions),
    ...activityParams(writes.map((w) => w.activity)),
  ];
  if (progress.some((w) => w.entries)) {
    await client.query(`WITH counters AS (${counters}), entries AS (${entriesUpsert(10)}) SELECT 1`, [
      ...params,
      ...entriesParams(progress),
    ]);
  } else {
    await client.query(counters, params);
  }
  writes.forEach((w, i) => {
    if (w.progress) cache.set(w.locked.key, w.progress.stored, revisions[i]!);
    else cache.set(w.locked.key, w.locked.stored, w.locked.revision);
  });
}
