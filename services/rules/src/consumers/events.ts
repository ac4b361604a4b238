import {
  type AcceptedEvent,
  acceptedEventClaimId,
  type RewardGrant,
  type RulesProgress,
  topicName,
  topics,
} from '@engage/contracts';
import {
  type ApplyBatch,
  type ConsumedRecord,
  type ConsumerStopped,
  consumerGroupId,
  enqueueOutboxRows,
  type KafkaClient,
  outboxRows,
  type RunningConsumer,
  startExactlyOnceConsumer,
} from '@engage/kafka';
import type { Logger } from '@engage/kit';
import type { Pool } from '@engage/postgres';
import { foldActivity } from '../domain/activity.ts';
import type { EnvironmentRules } from '../domain/definitions.ts';
import { foldProgressInPlace, isRelevant } from '../domain/fold.ts';
import type { RulesCache } from '../store/definitions.ts';
import { lockPlayers, type PlayerWrite, savePlayers } from '../store/players.ts';
import { keyOf, type PlayerRef, type ProgressCache, progressWrite } from '../store/progress.ts';

export interface ApplyOptions {
  rules: RulesCache;
  /** Players' decoded progress kept between batches (reloaded when another writer moved it). */
  progress: ProgressCache;
  topicPrefix: string;
}

/**
 * Applies a fetch round's accepted events inside the consumer's transaction: one statement
 * locks every player of the batch (reading their activity and the rules' version), the domain
 * functions fold each player's events into their state in memory (in place: the batch owns the
 * players it locked), one statement writes activity and changed progress back. Reward grants and analyst records go to the outbox in the same transaction, in one statement.
 * Returns how many outbox records it wrote.
 */
export async function applyAcceptedEvents(
  options: ApplyOptions,
  { client, records }: ApplyBatch<AcceptedEvent>,
): Promise<number> {
  const byPlayer = groupByPlayer(records);
  const players = new Map<string, PlayerRef>();
  for (const [key, events] of byPlayer) players.set(key, events[0]!.value);
  const locked = await lockPlayers(client, players, options.progress);
  const rulesByEnvironment = new Map<string, EnvironmentRules>();
  for (const { stored, rulesVersion } of locked) {
    const environmentId = stored.progress.environmentId;
    if (!rulesByEnvironment.has(environmentId)) {
      rulesByEnvironment.set(
        environmentId,
        await options.rules.atVersion(client, environmentId, rulesVersion),
      );
    }
  }
  const writes: PlayerWrite[] = [];
  const grants: RewardGrant[] = [];
  const progressRecords: RulesProgress[] = [];
  for (const player of locked) {
    const { stored, activity } = player;
    const { progress } = stored;
    const events = byPlayer.get(player.key)!;
    const nextActivity = foldActivity(
      progress,
      activity,
      events.map((r) => ({ eventId: r.value.eventId, offset: r.offset, occurredAt: r.value.occurredAt })),
    )!;
    const write: PlayerWrite = { locked: player, activity: nextActivity, progress: undefined };
    writes.push(write);
    const rules = rulesByEnvironment.get(progress.environmentId)!;
    const counted = events.map((r) => r.value).filter((e) => isRelevant(rules, e));
    if (counted.length === 0) continue;
    const result = foldProgressInPlace(rules, progress, counted);
    if (!result.changed) continue;
    write.progress = progressWrite(stored, progress, result.factsChanged);
    grants.push(...result.grants);
    progressRecords.push(...result.records);
  }
  await savePlayers(client, writes, options.progress);
  await enqueueOutboxRows(client, [
    ...outboxRows(topics.rewardsGranted, options.topicPrefix, grants),
    ...outboxRows(topics.rulesProgress, options.topicPrefix, progressRecords),
  ]);
  return grants.length + progressRecords.length;
}

/** Records grouped by player (`keyOf`), each group in offset order. */
function groupByPlayer(records: ConsumedRecord<AcceptedEvent>[]) {
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
 * A backlog is applied in chunks of this many events per partition (every partition of a fetch
 * round in one transaction): the more events of one player a chunk holds, the fewer times their row
 * is written. When the consumer keeps up, fetches are far smaller than this.
 */
const MAX_EVENTS_PER_PARTITION = 8_000;
/** Fetches large enough to fill such a chunk (accepted events are a few hundred bytes). */
const MAX_FETCH_BYTES_PER_PARTITION = 4 * 1024 * 1024;
/**
 * Transactions a kafkajs fetch round is applied in, each over half of the round's partitions: one
 * half folds in memory while the other waits on Postgres (docs/consumers.md).
 */
const FETCH_ROUND_TRANSACTIONS = 2;

export function startEventsConsumer(options: {
  kafka: KafkaClient;
  pool: Pool;
  log: Logger;
  topicPrefix: string;
  sessionTimeoutMs: number;
  onStopped?: ConsumerStopped | undefined;
  rules: RulesCache;
  progress: ProgressCache;
  /** Called after a commit that wrote outbox records (wakes the relay). */
  onOutbox: () => void;
}): Promise<RunningConsumer> {
  return startExactlyOnceConsumer({
    kafka: options.kafka,
    pool: options.pool,
    log: options.log,
    groupId: consumerGroupId('rules', options.topicPrefix),
    topic: topicName(topics.eventsAccepted, options.topicPrefix),
    definition: topics.eventsAccepted,
    sessionTimeoutMs: options.sessionTimeoutMs,
    onStopped: options.onStopped,
    maxRecordsPerTransaction: MAX_EVENTS_PER_PARTITION,
    maxBytesPerPartition: MAX_FETCH_BYTES_PER_PARTITION,
    fetchRoundTransactions: FETCH_ROUND_TRANSACTIONS,
    recordId: acceptedEventClaimId,
    apply: (batch) => applyAcceptedEvents(options, batch),
    // `result`: the outbox records the transaction wrote, published after its commit.
    afterCommit: async ({ result }) => {
      if (result > 0) options.onOutbox();
    },
  });
}
