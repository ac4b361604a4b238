import { randomUUID } from 'node:crypto';
import { type RewardGrant, topicName, topics } from '@engage/contracts';
import {
  type ApplyBatch,
  type ConsumedRecord,
  type ConsumerStopped,
  consumerGroupId,
  enqueueOutbox,
  type KafkaClient,
  type RunningConsumer,
  startExactlyOnceConsumer,
  type UndecodableRecord,
} from '@engage/kafka';
import type { Logger } from '@engage/kit';
import type { Pool, PoolClient } from '@engage/postgres';
import { journalRecord } from '../domain/journal-record.ts';
import { grantDefect, grantItems, grantPoints, grantReason } from '../domain/reward-grant.ts';
import { applyDelta } from '../store/balances.ts';
import { storeDeadLetter } from '../store/dead-letters.ts';
import { appendJournalEntry } from '../store/journal.ts';
import { recordPlayerItems } from '../store/player-items.ts';
import { type GrantOutcome, grantSeen, recordGrant } from '../store/reward-grants.ts';

/**
 * Credits one partition batch of reward grants inside the consumer's transaction (which also stores
 * the next offset): each grantId once, whatever the redelivery. Catalog items go to player_items. A
 * grant that cannot be applied (malformed, or refused by the database for its data) is kept in the
 * dead-letter table instead, and the partition goes on.
 */
export async function applyRewardGrants(
  client: PoolClient,
  records: ConsumedRecord<RewardGrant>[],
  topic: string,
  topicPrefix: string,
  log: Logger,
): Promise<void> {
  for (const record of records) {
    const defect = grantDefect(record.value);
    if (defect) {
      await deadLetter(client, topic, record, defect, log);
      continue;
    }
    // A savepoint per grant, so a grant the database refuses for its data is set aside alone.
    await client.query('SAVEPOINT reward_grant');
    try {
      await applyRewardGrant(client, record.value, topicPrefix, log);
      await client.query('RELEASE SAVEPOINT reward_grant');
    } catch (err) {
      if (!isDataError(err)) throw err;
      await client.query('ROLLBACK TO SAVEPOINT reward_grant');
      await deadLetter(client, topic, record, (err as Error).message, log);
    }
  }
}

async function applyRewardGrant(
  client: PoolClient,
  grant: RewardGrant,
  topicPrefix: string,
  log: Logger,
): Promise<void> {
  if (await grantSeen(client, grant)) return;
  const player = { environmentId: grant.environmentId, playerId: grant.playerId };
  const points = grantPoints(grant);
  let outcome: GrantOutcome = 'nothing_to_credit';
  let entryId: string | null = null;
  if (points > 0) {
    const credited = await applyDelta(client, player, points);
    if ('refused' in credited) {
      // Past the largest balance: recorded as refused (never retried into a loop), and logged.
      outcome = 'balance_limit_reached';
      log.warn({ grantId: grant.grantId, points }, 'reward not credited: the balance is at its limit');
    } else {
      const entry = await appendJournalEntry(client, {
        entryId: randomUUID(),
        organizationId: grant.organizationId,
        ...player,
        kind: 'reward',
        amount: points,
        balanceAfter: credited.balance,
        reason: grantReason(grant),
        idempotencyKey: null,
        sourceRef: grant.grantId,
      });
      await enqueueOutbox(client, topics.pointsJournal, topicPrefix, [journalRecord(entry)]);
      outcome = 'credited';
      entryId = entry.entryId;
    }
  }
  await recordGrant(client, grant, points, outcome, entryId);
  await recordPlayerItems(client, {
    ...player,
    source: 'reward',
    sourceRef: grant.grantId,
    entryId,
    items: grantItems(grant),
  });
}

/** Data exceptions (22) and integrity violations (23): the record's content, not the moment, is at fault. */
function isDataError(err: unknown): boolean {
  const code = (err as { code?: unknown }).code;
  return typeof code === 'string' && (code.startsWith('22') || code.startsWith('23'));
}

async function deadLetter(
  client: PoolClient,
  topic: string,
  record: ConsumedRecord<RewardGrant> | UndecodableRecord,
  error: string,
  log: Logger,
): Promise<void> {
  const undecodable = !('value' in record);
  log.error(
    { topic, partition: record.partition, offset: record.offset, error },
    'reward-grant record set aside in reward_grant_dead_letters',
  );
  await storeDeadLetter(
    client,
    { topic, partition: record.partition, offset: record.offset, key: record.key, raw: record.raw, error },
    undecodable ? 'undecodable' : 'malformed',
  );
}

export function startRewardGrantsConsumer(deps: {
  kafka: KafkaClient;
  pool: Pool;
  log: Logger;
  topicPrefix: string;
  sessionTimeoutMs: number;
  onStopped?: ConsumerStopped | undefined;
  onJournalCommitted: () => void;
}): Promise<RunningConsumer> {
  return startExactlyOnceConsumer({
    kafka: deps.kafka,
    pool: deps.pool,
    log: deps.log,
    groupId: consumerGroupId('ledger', deps.topicPrefix),
    topic: topicName(topics.rewardsGranted, deps.topicPrefix),
    definition: topics.rewardsGranted,
    sessionTimeoutMs: deps.sessionTimeoutMs,
    onStopped: deps.onStopped,
    apply: ({ client, records, topic }: ApplyBatch<RewardGrant>) =>
      applyRewardGrants(client, records, topic, deps.topicPrefix, deps.log),
    deadLetter: (client, record) => deadLetter(client, record.topic, record, record.error.message, deps.log),
    afterCommit: async () => deps.onJournalCommitted(),
  });
}
