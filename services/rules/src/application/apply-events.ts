import type { AcceptedEvent, RewardGrant, RulesProgress } from '@engage/contracts';
import { topics } from '@engage/contracts';
import { type ConsumedRecord, enqueueOutboxRows, outboxRows } from '@engage/kafka';
import type { PoolClient } from '@engage/postgres';
import { type ActivitySoFar, foldActivity } from '../domain/activity.ts';
import type { EnvironmentRules } from '../domain/definitions.ts';
import { foldProgressInPlace, isRelevant } from '../domain/fold.ts';
import {
  createPlayerRows,
  keyOf,
  lockPlayers,
  type PlayerRow,
  type PlayerRowWrite,
  type PlayerToRead,
  progressOf,
  progressWrite,
  readPlayers,
  type StoredProgress,
  writePlayers,
} from '../store/progress.ts';
import type { ProgressCache } from './progress-cache.ts';
import type { RulesCache } from './rules-cache.ts';

export interface ApplyEventsDeps {
  rules: RulesCache;
  /** Players' decoded progress kept between batches (read again when another writer moved it). */
  progress: ProgressCache;
  topicPrefix: string;
}

type Events = ConsumedRecord<AcceptedEvent>[];

/** What the batch holds of one player: their row as read, and the progress it now owns. */
interface HeldPlayer {
  key: string;
  row: PlayerRow;
  /** Taken out of the cache, or read: the batch owns it until it is put back after the write. */
  stored: StoredProgress;
}

/** One player's events applied in memory: the row write, and what it earned. */
interface Applied {
  player: HeldPlayer;
  write: PlayerRowWrite;
  grants: RewardGrant[];
  records: RulesProgress[];
}

/**
 * Applies accepted events inside the consumer's transaction, set-based over every player of the
 * batch: one statement reads all their rows (activity, revision, the rules' version) and the
 * progress of those the cache does not hold at their current revision; the domain folds each
 * player's events (in offset order) into their state in memory; one statement writes every player
 * back, each on the condition that their row has not moved since it was read. The rare player a
 * request wrote meanwhile is locked, read and folded again. Reward grants and analyst records go to
 * the outbox in one more statement. Returns how many outbox records it wrote.
 *
 * No row is locked before the write: the offsets the transaction moves already make it the only
 * consumer writer of its partitions' players (a zombie waits on them and then writes nothing
 * twice), and the condition catches any other writer.
 */
export async function applyAcceptedEvents(
  deps: ApplyEventsDeps,
  client: PoolClient,
  records: readonly ConsumedRecord<AcceptedEvent>[],
): Promise<number> {
  const byPlayer = groupByPlayer(records);
  const players = await readBatchPlayers(client, byPlayer, deps.progress);
  const applied = await applyAll(deps, client, players, byPlayer);
  const written = new Set(
    (
      await writePlayers(
        client,
        applied.map((a) => a.write),
      )
    ).map(rowKey),
  );
  const kept = applied.filter((a) => written.has(a.player.key));
  if (kept.length < applied.length) {
    const moved = applied.filter((a) => !written.has(a.player.key)).map((a) => a.player);
    const locked = await lockPlayers(
      client,
      moved.map(({ stored: { progress } }) => ({ ...progress, knownRevision: null })),
    );
    const again = await applyAll(deps, client, locked.map(held(deps.progress)), byPlayer);
    // Locked now: every write lands.
    if (
      (
        await writePlayers(
          client,
          again.map((a) => a.write),
        )
      ).length < again.length
    )
      throw new Error('a locked player was not written');
    kept.push(...again);
  }
  // Should the transaction roll back, the revisions written here never appear in the table, and the
  // next batch reads those players again.
  for (const { player, write } of kept) {
    if (write.progress) deps.progress.set(player.key, write.progress.stored, write.revision!);
    else deps.progress.set(player.key, player.stored, player.row.revision);
  }
  const grants = kept.flatMap((a) => a.grants);
  const progressRecords = kept.flatMap((a) => a.records);
  await enqueueOutboxRows(client, [
    ...outboxRows(topics.rewardsGranted, deps.topicPrefix, grants),
    ...outboxRows(topics.rulesProgress, deps.topicPrefix, progressRecords),
  ]);
  return grants.length + progressRecords.length;
}

/** Folds each player's events into their state and activity; the writes are conditional on the row read. */
async function applyAll(
  deps: ApplyEventsDeps,
  client: PoolClient,
  players: HeldPlayer[],
  byPlayer: ReadonlyMap<string, Events>,
): Promise<Applied[]> {
  const rulesByEnvironment = new Map<string, EnvironmentRules>();
  for (const { stored, row } of players) {
    const environmentId = stored.progress.environmentId;
    if (!rulesByEnvironment.has(environmentId)) {
      rulesByEnvironment.set(
        environmentId,
        await deps.rules.atVersion(client, environmentId, row.rules_version),
      );
    }
  }
  return players.map((player) => {
    const { row, stored } = player;
    const { progress } = stored;
    const events = byPlayer.get(player.key)!;
    const write: PlayerRowWrite = {
      player: progress,
      activity: foldActivity(
        progress,
        activitySoFar(row),
        events.map((r) => ({ eventId: r.value.eventId, offset: r.offset, occurredAt: r.value.occurredAt })),
      ),
      progress: undefined,
      revision: undefined,
      expected: { revision: row.revision, eventsApplied: row.events_applied },
    };
    const applied: Applied = { player, write, grants: [], records: [] };
    const rules = rulesByEnvironment.get(progress.environmentId)!;
    const counted = events.map((r) => r.value).filter((e) => isRelevant(rules, e));
    if (counted.length === 0) return applied;
    const result = foldProgressInPlace(rules, progress, counted);
    if (!result.changed) return applied;
    write.progress = progressWrite(stored, progress, result.factsChanged);
    // Only a write that moves progress needs a new revision: the cached progress of the others holds.
    write.revision = crypto.randomUUID();
    applied.grants = result.grants;
    applied.records = result.records;
    return applied;
  });
}

/** Records grouped by player (`keyOf`), each group in offset order. */
function groupByPlayer(records: readonly ConsumedRecord<AcceptedEvent>[]) {
  const groups = new Map<string, Events>();
  for (const record of records) {
    const key = keyOf(record.value);
    const group = groups.get(key);
    if (group) group.push(record);
    else groups.set(key, [record]);
  }
  return groups;
}

/**
 * Reads every player of the batch and gets hold of their progress: from the cache when it holds
 * the player at the revision read, else as read in the same statement. A player without a row (their
 * first event) has it created, then locked and read; so does a cached player whose row is missing
 * (the transaction that created it rolled back).
 */
async function readBatchPlayers(
  client: PoolClient,
  byPlayer: ReadonlyMap<string, Events>,
  cache: ProgressCache,
): Promise<HeldPlayer[]> {
  const wanted = new Map<string, PlayerToRead>();
  for (const [key, events] of byPlayer) {
    const { environmentId, playerId } = events[0]!.value;
    wanted.set(key, { environmentId, playerId, knownRevision: cache.revisionOf(key) });
  }
  let rows = await readPlayers(client, [...wanted.values()]);
  if (rows.length < wanted.size) {
    const found = new Set(rows.map(rowKey));
    const missing = [...wanted].filter(([key]) => !found.has(key)).map(([, player]) => player);
    await createPlayerRows(client, missing);
    rows = rows.concat(await lockPlayers(client, missing));
  }
  return rows.map(held(cache));
}

/** A row read as the player the batch holds: its progress as read, or taken out of the cache. */
const held =
  (cache: ProgressCache) =>
  (row: PlayerRow): HeldPlayer => {
    const key = rowKey(row);
    const cached = cache.take(key, row.revision);
    const stored = row.stale ? progressOf(row) : cached;
    // The read leaves out the progress only of players whose revision is the one the cache holds.
    if (!stored) throw new Error('a player was neither cached nor read');
    return { key, row, stored };
  };

const rowKey = (row: { environment_id: string; player_id: string }) =>
  keyOf({ environmentId: row.environment_id, playerId: row.player_id });

function activitySoFar(row: PlayerRow): ActivitySoFar | undefined {
  if (row.events_applied === 0) return undefined;
  return {
    eventsApplied: Number(row.events_applied),
    lastOccurredAt: row.last_occurred_at!,
    appliedEventsDigest: row.applied_events_digest,
  };
}
