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
  type LockRow,
  lockPlayers,
  type PlayerRowWrite,
  type PlayerToLock,
  progressWrite,
  type StoredProgress,
  toStoredProgress,
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

/** What the batch holds of one player: the lock row read, and the progress it now owns. */
interface LockedPlayer {
  key: string;
  row: LockRow;
  /** Taken out of the cache, or read: the batch owns it until it is put back after the write. */
  stored: StoredProgress;
}

/**
 * Applies accepted events inside the consumer's transaction, set-based over every player of the
 * batch: one round trip locks all their rows (reading their activity and the rules' version) and
 * reads the progress of those the cache does not hold at their current revision; the domain folds
 * each player's events (in offset order) into their state in memory; one statement writes every
 * player back; reward grants and analyst records go to the outbox in one more. Returns how many
 * outbox records it wrote.
 */
export async function applyAcceptedEvents(
  deps: ApplyEventsDeps,
  client: PoolClient,
  records: readonly ConsumedRecord<AcceptedEvent>[],
): Promise<number> {
  const byPlayer = groupByPlayer(records);
  const players = await lockBatchPlayers(client, byPlayer, deps.progress);
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
  const writes: PlayerRowWrite[] = [];
  const grants: RewardGrant[] = [];
  const progressRecords: RulesProgress[] = [];
  for (const { key, row, stored } of players) {
    const { progress } = stored;
    const events = byPlayer.get(key)!;
    const write: PlayerRowWrite = {
      player: progress,
      activity: foldActivity(
        progress,
        activitySoFar(row),
        events.map((r) => ({ eventId: r.value.eventId, offset: r.offset, occurredAt: r.value.occurredAt })),
      ),
      progress: undefined,
      revision: undefined,
    };
    writes.push(write);
    const rules = rulesByEnvironment.get(progress.environmentId)!;
    const counted = events.map((r) => r.value).filter((e) => isRelevant(rules, e));
    if (counted.length === 0) continue;
    const result = foldProgressInPlace(rules, progress, counted);
    if (!result.changed) continue;
    write.progress = progressWrite(stored, progress, result.factsChanged);
    // Only a write that moves progress needs a new revision: the cached progress of the others holds.
    write.revision = crypto.randomUUID();
    grants.push(...result.grants);
    progressRecords.push(...result.records);
  }
  await writePlayers(client, writes);
  // Should the transaction roll back, the revisions written here never appear in the table, and the
  // next batch reads those players again.
  players.forEach(({ key, row, stored }, i) => {
    const { progress, revision } = writes[i]!;
    if (progress) deps.progress.set(key, progress.stored, revision!);
    else deps.progress.set(key, stored, row.revision);
  });
  await enqueueOutboxRows(client, [
    ...outboxRows(topics.rewardsGranted, deps.topicPrefix, grants),
    ...outboxRows(topics.rulesProgress, deps.topicPrefix, progressRecords),
  ]);
  return grants.length + progressRecords.length;
}

/** Records grouped by player (`keyOf`), each group in offset order. */
function groupByPlayer(records: readonly ConsumedRecord<AcceptedEvent>[]) {
  const groups = new Map<string, ConsumedRecord<AcceptedEvent>[]>();
  for (const record of records) {
    const key = keyOf(record.value);
    const group = groups.get(key);
    if (group) group.push(record);
    else groups.set(key, [record]);
  }
  return groups;
}

/**
 * Locks every player of the batch and gets hold of their progress: from the cache when it holds
 * the player at the revision locked, else as read in the same round trip. A player without a row
 * (their first event) has it created, then locked; so does a cached player whose row is missing
 * (the transaction that created it rolled back).
 */
async function lockBatchPlayers(
  client: PoolClient,
  byPlayer: ReadonlyMap<string, ConsumedRecord<AcceptedEvent>[]>,
  cache: ProgressCache,
): Promise<LockedPlayer[]> {
  const wanted = new Map<string, PlayerToLock>();
  for (const [key, events] of byPlayer) {
    const { environmentId, playerId } = events[0]!.value;
    wanted.set(key, { environmentId, playerId, knownRevision: cache.revisionOf(key) });
  }
  let { locked, read } = await lockPlayers(client, [...wanted.values()]);
  if (locked.length < wanted.size) {
    const found = new Set(locked.map(rowKey));
    const missing = [...wanted].filter(([key]) => !found.has(key)).map(([, player]) => player);
    await createPlayerRows(client, missing);
    const created = await lockPlayers(client, missing);
    locked = locked.concat(created.locked);
    read = read.concat(created.read);
  }
  const readByKey = new Map(read.map((row) => [rowKey(row), row]));
  return locked.map((row) => {
    const key = rowKey(row);
    const cached = cache.take(key, row.revision);
    const fresh = readByKey.get(key);
    const stored = fresh ? toStoredProgress(fresh) : cached;
    // The read skips only players whose locked revision is the one the cache holds.
    if (!stored) throw new Error('a locked player was neither cached nor read');
    return { key, row, stored };
  });
}

const rowKey = (row: { environment_id: string; player_id: string }) =>
  keyOf({ environmentId: row.environment_id, playerId: row.player_id });

function activitySoFar(row: LockRow): ActivitySoFar | undefined {
  if (row.events_applied === 0) return undefined;
  return {
    eventsApplied: Number(row.events_applied),
    lastOccurredAt: row.last_occurred_at!,
    appliedEventsDigest: row.applied_events_digest,
  };
}
