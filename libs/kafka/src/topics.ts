import { allTopics, type TopicDefinition, topicName } from '@engage/contracts';
import type { KafkaClient } from './client.ts';

/**
 * Creates the catalog's topics with their explicit partition counts and settings. Existing topics
 * are left as they are (a partition count is never lowered); missing partitions are added.
 */
export async function ensureTopics(
  kafka: KafkaClient,
  prefix: string,
  defs: TopicDefinition<unknown>[] = allTopics(),
  replicationFactor = 1,
): Promise<void> {
  // Topic creation races with itself when several processes create topics at once (the broker can
  // answer "does not host this topic-partition" while leaders settle); each attempt is idempotent.
  for (let attempt = 1; ; attempt++) {
    try {
      return await createOrGrowTopics(kafka, prefix, defs, replicationFactor);
    } catch (err) {
      if (attempt >= 5) throw err;
      await new Promise((resolve) => setTimeout(resolve, 200 * attempt));
    }
  }
}

async function createOrGrowTopics(
  kafka: KafkaClient,
  prefix: string,
  defs: TopicDefinition<unknown>[],
  replicationFactor: number,
): Promise<void> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    const existing = new Set(await admin.listTopics());
    const missing = defs.filter((def) => !existing.has(topicName(def, prefix)));
    if (missing.length > 0) {
      await admin.createTopics({
        waitForLeaders: true,
        topics: missing.map((def) => ({
          topic: topicName(def, prefix),
          numPartitions: def.partitions,
          replicationFactor,
          configEntries: Object.entries(def.config).map(([name, value]) => ({ name, value })),
        })),
      });
    }
    const present = defs.filter((def) => existing.has(topicName(def, prefix)));
    if (present.length > 0) {
      const metadata = await admin.fetchTopicMetadata({
        topics: present.map((def) => topicName(def, prefix)),
      });
      const grow = metadata.topics.flatMap((t) => {
        const def = present.find((d) => topicName(d, prefix) === t.name);
        return def && t.partitions.length < def.partitions ? [{ topic: t.name, count: def.partitions }] : [];
      });
      if (grow.length > 0) await admin.createPartitions({ topicPartitions: grow });
    }
  } finally {
    await admin.disconnect();
  }
}
