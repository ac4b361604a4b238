import { type TopicDefinition, topics } from '@engage/contracts';
import { createKafka, ensureTopics } from '@engage/kafka';
import { createLogger } from '@engage/kit';

/**
 * Creates the ledger's topics (the journal it publishes, the rewards it consumes) under
 * `topicPrefix`. kafkajs's createTopics can report "This server does not host this topic-partition"
 * while it waits for the new partitions' leaders (seen when several test files create topics at
 * once); creating again is safe, since existing topics are left alone.
 */
export async function createJournalTopic(brokers: string[], topicPrefix: string): Promise<void> {
  const kafka = createKafka({
    brokers,
    clientId: 'ledger-test-topics',
    log: createLogger('topics', 'fatal'),
  });
  const ledgerTopics = [topics.pointsJournal, topics.rewardsGranted] as TopicDefinition<unknown>[];
  for (let attempt = 1; ; attempt++) {
    try {
      return await ensureTopics(kafka, topicPrefix, ledgerTopics);
    } catch (err) {
      if (attempt >= 5) throw err;
      await new Promise((resolve) => setTimeout(resolve, 200 * attempt));
    }
  }
}
