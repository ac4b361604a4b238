import {
  ensureTopicSpecs,
  type KafkaSecurity,
  kafkajsSecurity,
  PLAINTEXT,
  type TopicSpec,
} from '@engage/kafka';
import type { Admin } from 'kafkajs';
import kafkajs from 'kafkajs';
import { sleep } from './jvm.ts';

export type { TopicSpec };

const { Kafka, logLevel } = kafkajs;

function quietAdmin(brokers: string[], clientId: string, timeoutMs: number, security: KafkaSecurity): Admin {
  const kafka = new Kafka({
    clientId,
    brokers,
    ...kafkajsSecurity(security),
    logLevel: logLevel.NOTHING,
    connectionTimeout: timeoutMs,
    requestTimeout: timeoutMs,
    retry: { retries: 0 },
  });
  return kafka.admin({ retry: { retries: 0 } });
}

/** One `describeCluster` attempt; resolves with the cluster id or rejects. */
export async function describeOnce(
  brokers: string[],
  timeoutMs = 3_000,
  security: KafkaSecurity = PLAINTEXT,
): Promise<{ clusterId: string }> {
  const admin = quietAdmin(brokers, 'devstack-probe', timeoutMs, security);
  try {
    await admin.connect();
    const cluster = await admin.describeCluster();
    return { clusterId: cluster.clusterId };
  } finally {
    await admin.disconnect().catch(() => {});
  }
}

/**
 * Polls `describeCluster` until it answers or `timeoutMs` passes. `check` runs before every
 * attempt and may throw to abort early (e.g. the broker process died).
 */
export async function waitForCluster(
  brokers: string[],
  opts: { timeoutMs: number; intervalMs?: number; check?: () => void; security?: KafkaSecurity },
): Promise<{ clusterId: string }> {
  const deadline = Date.now() + opts.timeoutMs;
  let lastError: unknown;
  for (;;) {
    opts.check?.();
    try {
      return await describeOnce(
        brokers,
        Math.min(3_000, Math.max(500, deadline - Date.now())),
        opts.security,
      );
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
export async function createTopics(
  brokers: string[],
  topics: TopicSpec[],
  security: KafkaSecurity = PLAINTEXT,
): Promise<void> {
  const kafka = new Kafka({
    clientId: 'devstack-topics',
    brokers,
    logLevel: logLevel.WARN,
    ...kafkajsSecurity(security),
  });
  await ensureTopicSpecs(kafka, topics);
}
