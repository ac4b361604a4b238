import { topicName, topics } from '@engage/contracts';
import { consumerGroupId, createKafka } from '@engage/kafka';
import { createLogger } from '@engage/kit';
import type { Pool } from '@engage/postgres';
import type { BenchStack } from '../stack.ts';

/** The services that consume accepted events, by their Postgres schema. */
const EVENT_CONSUMERS = ['rules', 'query'] as const;

/**
 * How far the rules and query consumers are behind the accepted-events topic: the topic's end
 * offsets beside the offsets each service stored with its effects (its `kafka_offsets` table).
 */
export async function eventConsumerLag(stack: BenchStack, db: Pool) {
  const topic = topicName(topics.eventsAccepted, stack.topicPrefix);
  const kafka = createKafka({
    brokers: stack.infra.brokers,
    clientId: 'bench-lag',
    log: createLogger('bench', 'error'),
  });
  const admin = kafka.admin();
  await admin.connect();
  const lag = async (): Promise<Record<(typeof EVENT_CONSUMERS)[number], number>> => {
    const ends = await admin.fetchTopicOffsets(topic);
    const end = ends.reduce((sum, p) => sum + Number(p.high), 0);
    const entries = await Promise.all(
      EVENT_CONSUMERS.map(async (service) => {
        const { rows } = await db.query<{ n: string | null }>(
          `SELECT sum(next_offset)::text AS n FROM ${service}.kafka_offsets WHERE group_id = $1 AND topic = $2`,
          [consumerGroupId(service, stack.topicPrefix), topic],
        );
        return [service, end - Number(rows[0]?.n ?? 0)] as const;
      }),
    );
    return Object.fromEntries(entries) as Record<(typeof EVENT_CONSUMERS)[number], number>;
  };
  return {
    lag,
    /** Resolves true once both have applied everything on the topic, false if `timeoutMs` passes first. */
    async caughtUp(timeoutMs: number): Promise<boolean> {
      const deadline = performance.now() + timeoutMs;
      while (performance.now() < deadline) {
        const behind = await lag();
        if (Object.values(behind).every((n) => n <= 0)) return true;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      return false;
    },
    close: () => admin.disconnect(),
  };
}

export type EventConsumerLag = Awaited<ReturnType<typeof eventConsumerLag>>;
