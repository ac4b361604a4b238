import { allTopics, type TopicDefinition, topicName } from '@engage/contracts';
import { retry } from '@engage/kit';
import type { Admin } from 'kafkajs';
import type { KafkaClient } from './client.ts';

/** A topic to create: its full name, partition count and settings. */
export interface TopicSpec {
  name: string;
  partitions: number;
  config?: Readonly<Record<string, string>>;
}

/** Creates the catalog's topics under `prefix` with their explicit partition counts and settings. */
export function ensureTopics(
  kafka: KafkaClient,
  prefix: string,
  defs: TopicDefinition<unknown>[] = allTopics(),
  replicationFactor = 1,
): Promise<void> {
  const specs = defs.map((def) => ({
    name: topicName(def, prefix),
    partitions: def.partitions,
    config: def.config,
  }));
  return ensureTopicSpecs(kafka, specs, replicationFactor);
}

/**
 * Creates the topics that do not exist and adds partitions to those that have fewer than asked.
 * Existing topics are otherwise left as they are (a partition count is never lowered).
 */
export async function ensureTopicSpecs(
  kafka: KafkaClient,
  specs: TopicSpec[],
  replicationFactor = 1,
): Promise<void> {
  if (specs.length === 0) return;
  // Topic creation races with itself when several processes create topics at once (the broker can
  // answer "does not host this topic-partition" while leaders settle); each attempt is idempotent.
  await retry(() => createOrGrowTopics(kafka, specs, replicationFactor), {
    attempts: 5,
    delayMs: (failed) => 200 * failed,
  });
}

async function createOrGrowTopics(kafka: KafkaClient, specs: TopicSpec[], replicationFactor: number) {
  const admin = kafka.admin();
  await admin.connect();
  try {
    const existing = new Set(await admin.listTopics());
    const missing = specs.filter((spec) => !existing.has(spec.name));
    if (missing.length > 0) {
      await admin.createTopics({
        waitForLeaders: true,
        topics: missing.map((spec) => ({
          topic: spec.name,
          numPartitions: spec.partitions,
          replicationFactor,
          configEntries: Object.entries(spec.config ?? {}).map(([name, value]) => ({ name, value })),
        })),
      });
    }
    const present = specs.filter((spec) => existing.has(spec.name));
    if (present.length > 0) {
      const metadata = await admin.fetchTopicMetadata({ topics: present.map((spec) => spec.name) });
      const grow = metadata.topics.flatMap((t) => {
        const spec = present.find((s) => s.name === t.name);
        return spec && t.partitions.length < spec.partitions
          ? [{ topic: t.name, count: spec.partitions }]
          : [];
      });
      if (grow.length > 0) {
        await admin.createPartitions({ topicPartitions: grow });
        await awaitPartitionCounts(admin, grow);
      }
    }
  } finally {
    await admin.disconnect();
  }
}

/**
 * The broker answers createPartitions before its metadata shows the new partitions; a producer that
 * fetched metadata in between would spread keys over the old count. Returns once every grown topic
 * shows its count; throws (for ensureTopicSpecs to try again) if that takes over 5 s.
 */
async function awaitPartitionCounts(admin: Admin, grown: { topic: string; count: number }[]): Promise<void> {
  const names = grown.map((g) => g.topic);
  await retry(
    async () => {
      const metadata = await admin.fetchTopicMetadata({ topics: names });
      const short = grown.filter((g) => {
        const topic = metadata.topics.find((t) => t.name === g.topic);
        return (topic?.partitions.length ?? 0) < g.count;
      });
      if (short.length > 0)
        throw new Error(`partitions of ${names.join(', ')} not visible in metadata after 5 s`);
    },
    { attempts: 50, delayMs: () => 100 },
  );
}
