import { type EnvironmentContext, type RewardGrant, topics } from '@engage/contracts';
import { connectProducer, createKafka, produceRecords } from '@engage/kafka';
import { createLogger } from '@engage/kit';

/** A reward grant as the rules service publishes it. */
export function rewardGrant(
  env: EnvironmentContext,
  playerId: string,
  points: number,
  items: { key: string; value: number | string | boolean | null }[] = [],
): RewardGrant {
  return {
    grantId: crypto.randomUUID(),
    organizationId: env.organizationId,
    environmentId: env.environmentId,
    playerId,
    source: 'Mission',
    sourceKey: 'win-three',
    occurrenceNumber: 1,
    milestoneThreshold: null,
    rewards: [
      ...(points > 0
        ? [{ kind: 'Points' as const, pointsAmount: points, catalogItemKey: null, catalogItemValue: null }]
        : []),
      ...items.map((i) => ({
        kind: 'CatalogItem' as const,
        pointsAmount: null,
        catalogItemKey: i.key,
        catalogItemValue: i.value,
      })),
    ],
    grantedAt: new Date().toISOString(),
  };
}

/** Publishes grants to the rewards topic under `topicPrefix`. */
export async function publishGrants(
  brokers: string[],
  topicPrefix: string,
  grants: RewardGrant[],
): Promise<void> {
  const producer = await connectProducer(
    createKafka({ brokers, clientId: 'grants-test', log: createLogger('grants-test', 'error') }),
  );
  try {
    await produceRecords(producer, topics.rewardsGranted, topicPrefix, grants);
  } finally {
    await producer.disconnect();
  }
}
