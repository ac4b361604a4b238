import { type TopicDefinition, topics } from '@engage/contracts';
import { createCatalogTopics } from '@engage/devstack';

/**
 * Creates the ledger's topics (the journal and purchases it publishes, the rewards it consumes)
 * under `topicPrefix`.
 */
export async function createLedgerTopics(brokers: string[], topicPrefix: string): Promise<void> {
  const ledgerTopics = [
    topics.pointsJournal,
    topics.shopPurchases,
    topics.rewardsGranted,
  ] as TopicDefinition<unknown>[];
  await createCatalogTopics(brokers, topicPrefix, { topics: ledgerTopics });
}
