import type { AcceptedEvent, RewardGrant, RulesProgress } from '@engage/contracts';
import { topics } from '@engage/contracts';
import { type ConsumedRecord, enqueueOutboxRows, outboxRows } from '@engage/kafka';
import type { PoolClient } from '@engage/postgres';
import { type ActivitySoFar, foldActivity } from '../domain/activity.ts';
import type { EnvironmentRules } from '../domain/definitions.ts';
import { foldProgressInPlace, isRelevant } from '../domain/fold.ts';
import { definitionVersions } from '../store/definitions.ts';
import {
  createPlayerRows,
  keyOf,
  lockPlayers,
  type PlayerRef,
  type PlayerRow,
  type PlayerRowWrite,
  progressOf,
  progressWrite,
  readPlayers,
  writePlayers,
} from '../store/progress.ts';
import type { CommittedPlayer, HeldPlayer, ProgressCache } from './progress-cache.ts';
import type { RulesCache } from './rules-cache.ts';

export interface ApplyEventsDeps {
  rules: RulesCache;
  /** The players the consumer holds as its last commit left them (`keepApplied` puts them back). */
  progress: ProgressCache;
  topicPrefix: string;
}

/** What a transaction applied: its outbox records, and its players as it wrote them. */
export interface AppliedEvents {
  outboxRecords: number;
  /** To hold once the transaction committed (`keepApplied`); never before. */
  players: CommittedPlayer[];
}

type Events = ConsumedRecord<AcceptedEvent>[];

/** One player of the batch: who, the state the batch folds into, and the rules' version to fold by. */
interface BatchPlayer {
  key: string;
  ref: PlayerRef;
  held: HeldPlayer;
  rulesVersion: number | null;
}

/** One player's events applied in memory: the row write, and what it earned. */
interface Applied {
  player: BatchPlayer;
  write: PlayerRowWrite;
  grants: RewardGrant[];
  records: RulesProgress[];
}

/**
 * Applies accepted events inside the consumer's transaction, set-based over every player of the
 * batch. The players the consumer holds are not read: only those it does not hold are, in one
 * statement (with their progress), together with the batch's environments' rules versions. The
 * domain folds each player's events (in offset order) into their state in memory; one statement
 * writes every player back, each on the condition that their row still has the revision and events
 * applied the fold started from. The rare player another writer moved meanwhile (a request entering
 * or accepting a mission) is locked, read and folded again. Reward grants and analyst records go to
 * the outbox in one more statement, only for what changed.
 *
 * No row is locked before the write: the offsets the transaction moves already make it the only
 * consumer writer of its partitions' players (a zombie waits on them and then writes nothing
 * twice), and the condition catches any other writer.
 */
export async function applyAcceptedEvents(
  deps: ApplyEventsDeps,
  client: PoolClient,
  records: readonly ConsumedRecord<AcceptedEvent>[],
): Promise<AppliedEvents> {
  const byPlayer = groupByPlayer(records);
  const players = await batchPlayers(client, byPlayer, deps.progress);
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
    const moved = applied.filter((a) => !written.has(a.player.key)).map((a) => a.player.ref);
    // A held player's row can be gone too (a rebuild cleared the table): it is created again.
    await createPlayerRows(client, moved);
    const locked = await lockPlayers(
      client,
      moved.map((ref) => ({ ...ref, knownRevision: null })),
    );
    const again = await applyAll(deps, client, locked.map(fromRow), byPlayer);
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
  const grants = kept.flatMap((a) => a.grants);
  const progressRecords = kept.flatMap((a) => a.records);
  await enqueueOutboxRows(client, [
    ...outboxRows(topics.rewardsGranted, deps.topicPrefix, grants),
    ...outboxRows(topics.rulesProgress, deps.topicPrefix, progressRecords),
  ]);
  return {
    outboxRecords: grants.length + progressRecords.length,
    players: kept.map((a) => ({
      key: a.player.key,
      partition: byPlayer.get(a.player.key)![0]!.partition,
      held: heldAfter(a),
    })),
  };
}

/** After the transaction committed: the consumer holds its players as it wrote them. */
export function keepApplied(deps: Pick<ApplyEventsDeps, 'progress'>, applied: AppliedEvents): void {
  deps.progress.keep(applied.players);
}

/** Folds each player's events into their state and activity; the writes are conditional on where it started. */
async function applyAll(
  deps: ApplyEventsDeps,
  client: PoolClient,
  players: BatchPlayer[],
  byPlayer: ReadonlyMap<string, Events>,
): Promise<Applied[]> {
  const rulesByEnvironment = new Map<string, EnvironmentRules>();
  for (const { ref, rulesVersion } of players) {
    if (!rulesByEnvironment.has(ref.environmentId)) {
      rulesByEnvironment.set(
        ref.environmentId,
        await deps.rules.atVersion(client, ref.environmentId, rulesVersion),
      );
    }
  }
  return players.map((player) => {
    const { held } = player;
    const { progress } = held.stored;
    const events = byPlayer.get(player.key)!;
    const write: PlayerRowWrite = {
      player: player.ref,
      activity: foldActivity(
        player.ref,
        held.activity,
        events.map((r) => ({ eventId: r.value.eventId, offset: r.offset, occurredAt: r.value.occurredAt })),
      ),
      progress: undefined,
      revision: undefined,
      expected: { revision: held.revision, eventsApplied: held.eventsApplied },
    };
    const applied: Applied = { player, write, grants: [], records: [] };
    const rules = rulesByEnvironment.get(player.ref.environmentId)!;
    const counted = events.map((r) => r.value).filter((e) => isRelevant(rules, e));
    if (counted.length === 0) return applied;
    const result = foldProgressInPlace(rules, progress, counted);
    if (!result.changed) return applied;
    write.progress = progressWrite(held.stored, progress, result.factsChanged);
    // Only a write that moves progress needs a new revision.
    write.revision = crypto.randomUUID();
    applied.grants = result.grants;
    applied.records = result.records;
    return applied;
  });
}

/** The player as this write leaves their row. */
function heldAfter({ player, write }: Applied): HeldPlayer {
  const activity = write.activity!;
  return {
    revision: write.revision ?? player.held.revision,
    eventsApplied: activity.eventsApplied,
    activity: {
      eventsApplied: activity.eventsApplied,
      lastOccurredAt: activity.lastOccurredAt,
      appliedEventsDigest: activity.appliedEventsDigest,
    },
    stored: write.progress?.stored ?? player.held.stored,
  };
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
 * Every player of the batch with the state to fold into: taken from the cache, or read (one
 * statement for all the cache does not hold, sent with the one that reads the rules versions of the
 * environments of those it holds). A player without a row (their first event) has it created, then
 * locked and read.
 */
async function batchPlayers(
  client: PoolClient,
  byPlayer: ReadonlyMap<string, Events>,
  cache: ProgressCache,
): Promise<BatchPlayer[]> {
  const held: { key: string; ref: PlayerRef; held: HeldPlayer }[] = [];
  const toRead: PlayerRef[] = [];
  for (const [key, events] of byPlayer) {
    const { environmentId, playerId } = events[0]!.value;
    const ref = { environmentId, playerId };
    const cached = cache.take(key);
    if (cached) held.push({ key, ref, held: cached });
    else toRead.push(ref);
  }
  const heldEnvironments = [...new Set(held.map((h) => h.ref.environmentId))];
  const [versions, read] = await Promise.all([
    definitionVersions(client, heldEnvironments),
    readPlayers(
      client,
      toRead.map((ref) => ({ ...ref, knownRevision: null })),
    ),
  ]);
  let rows = read;
  if (rows.length < toRead.length) {
    const found = new Set(rows.map(rowKey));
    const missing = toRead
      .filter((ref) => !found.has(keyOf(ref)))
      .map((ref) => ({ ...ref, knownRevision: null }));
    await createPlayerRows(client, missing);
    rows = rows.concat(await lockPlayers(client, missing));
  }
  return [
    ...held.map((h) => ({ ...h, rulesVersion: versions.get(h.ref.environmentId) ?? null })),
    ...rows.map(fromRow),
  ];
}

/** A player as read from their row (with their progress: it was read in full). */
function fromRow(row: PlayerRow): BatchPlayer {
  const ref = { environmentId: row.environment_id, playerId: row.player_id };
  return {
    key: keyOf(ref),
    ref,
    held: {
      revision: row.revision,
      eventsApplied: Number(row.events_applied),
      activity: activitySoFar(row),
      stored: progressOf(row),
    },
    rulesVersion: row.rules_version,
  };
}

const rowKey = (row: { environment_id: string; player_id: string }) =>
  keyOf({ environmentId: row.environment_id, playerId: row.player_id });

function activitySoFar(row: PlayerRow): ActivitySoFar | undefined {
  if (Number(row.events_applied) === 0) return undefined;
  return {
    eventsApplied: Number(row.events_applied),
    lastOccurredAt: row.last_occurred_at!,
    appliedEventsDigest: row.applied_events_digest,
  };
}
