import type { Admin, ITopicConfig } from 'kafkajs';
import kafkajs from 'kafkajs';

const { Kafka, logLevel } = kafkajs;

export interface TopicSpec {
  name: string;
  partitions: number;
  config?: Record<string, string>;
}

function quietAdmin(brokers: string[], clientId: string, timeoutMs = 3_000): Admin {
  const kafka = new Kafka({
    clientId,
    brokers,
    logLevel: logLevel.NOTHING,
    connectionTimeout: timeoutMs,
    requestTimeout: timeoutMs,
    retry: { retries: 0 },
  });
  return kafka.admin({ retry: { retries: 0 } });
}

/** One `describeCluster` attempt; resolves with the cluster id or rejects. */
export async function describeOnce(brokers: string[], timeoutMs = 3_000): Promise<{ clusterId: string }> {
  const admin = quietAdmin(brokers, 'devstack-probe', timeoutMs);
  try {
    await admin.connect();
    const cluster = await admin.describeCluster();
    return { clusterId: cluster.clusterId };
  } finally {
    await admin.disconnect().catch(() => {});
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Polls `describeCluster` until it answers or `timeoutMs` passes. `check` runs before every
 * attempt and may throw to abort early (e.g. the broker process died).
 */
export async function waitForCluster(
  brokers: string[],
  opts: { timeoutMs: number; intervalMs?: number; check?: () => void },
): Promise<{ clusterId: string }> {
  const deadline = Date.now() + opts.timeoutMs;
  let lastError: unknown;
  for (;;) {
    opts.check?.();
    try {
      return await describeOnce(brokers, Math.min(3_000, Math.max(500, deadline - Date.now())));
    } catch (error) {
      lastError = error;
    }
    if (Date.now() >= deadline) {
      const reason = lastError instanceof Error ? lastError.message : String(lastError);
      throw new Error(
        `Kafka at ${brokers.join(',')} did not answer describeCluster within ${opts.timeoutMs} ms: ${reason}`,
      );
    }
    await sleep(opts.intervalMs ?? 500);
  }
}

/**
 * Creates the topics that do not exist yet (existing ones are fine) and grows the partition count
 * of existing topics that have fewer partitions than asked. Never shrinks or reconfigures.
 */
export async function createTopics(brokers: string[], topics: TopicSpec[]): Promise<void> {
  if (topics.length === 0) return;
  const kafka = new Kafka({ clientId: 'devstack-topics', brokers, logLevel: logLevel.WARN });
  const admin = kafka.admin();
  await admin.connect();
  try {
    const existing = new Set(await admin.listTopics());
    const missing: ITopicConfig[] = topics
      .filter((t) => !existing.has(t.name))
      .map((t) => ({
        topic: t.name,
        numPartitions: t.partitions,
        configEntries: Object.entries(t.config ?? {}).map(([name, value]) => ({ name, value })),
      }));
    if (missing.length > 0) {
      try {
        await admin.createTopics({ topics: missing, waitForLeaders: true });
      } catch (error) {
        // A concurrent creator may have won the race; anything else is real.
        const names = (error as { type?: string; errors?: { type?: string }[] }).errors ?? [];
        if (!names.every((e) => e.type === 'TOPIC_ALREADY_EXISTS') || names.length === 0) throw error;
      }
    }
    const present = topics.filter((t) => existing.has(t.name));
    if (present.length > 0) {
      const { topics: meta } = await admin.fetchTopicMetadata({ topics: present.map((t) => t.name) });
      const grow = present
        .map((t) => ({
          topic: t.name,
          count: t.partitions,
          has: meta.find((m) => m.name === t.name)?.partitions.length ?? 0,
        }))
        .filter((t) => t.has > 0 && t.has < t.count)
        .map(({ topic, count }) => ({ topic, count }));
      if (grow.length > 0) await admin.createPartitions({ topicPartitions: grow, validateOnly: false });
    }
  } finally {
    await admin.disconnect();
  }
}
