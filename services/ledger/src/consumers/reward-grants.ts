import { type RewardGrant, topicName, topics } from '@engage/contracts';
import {
  type ApplyBatch,
  type ConsumerStopped,
  consumerGroupId,
  type KafkaClient,
  type RunningConsumer,
  startExactlyOnceConsumer,
} from '@engage/kafka';
import type { Logger } from '@engage/kit';
import type { Pool } from '@engage/postgres';
import { applyRewardGrants } from '../application/credit-reward-grants.ts';

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
    apply: ({ client, records }: ApplyBatch<RewardGrant>) =>
      applyRewardGrants(client, records, deps.topicPrefix, deps.log),
    afterCommit: async () => deps.onJournalCommitted(),
  });
}
