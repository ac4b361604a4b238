import { type TopicDefinition, topicName } from '@engage/contracts';
import { createKafka, decodeRecord } from '@engage/kafka';
import { createLogger } from '@engage/kit';
import { stackConfig } from './stack.ts';

/** Every record now in a topic (all partitions, from the beginning), decoded, in partition order. */
export async function readTopicRecords<T>(
  prefix: string,
  definition: TopicDefinition<T>,
  options: { timeoutMs?: number; brokers?: string[] } = {},
): Promise<T[]> {
  const kafka = createKafka({
    brokers: options.brokers ?? stackConfig().brokers,
    clientId: 'test-topic-reader',
    log: createLogger('test-topic-reader', 'error'),
  });
  const topic = topicName(definition, prefix);
  const admin = kafka.admin();
  await admin.connect();
  try {
    const offsets = await admin.fetchTopicOffsets(topic);
    const wanted = offsets.reduce((sum, p) => sum + Number(p.high) - Number(p.low), 0);
    if (wanted === 0) return [];
    const consumer = kafka.consumer({ groupId: `reader-${crypto.randomUUID()}` });
    await consumer.connect();
    await consumer.subscribe({ topic, fromBeginning: true });
    const records: { partition: number; offset: bigint; value: T }[] = [];
    const { promise: complete, resolve } = Promise.withResolvers<void>();
    await consumer.run({
      eachMessage: async ({ partition, message }) => {
        if (message.value) {
          records.push({
            partition,
            offset: BigInt(message.offset),
            value: decodeRecord(definition, message.value),
          });
        }
        if (records.length >= wanted) resolve();
      },
    });
    const timer = setTimeout(resolve, options.timeoutMs ?? 30_000);
    await complete;
    clearTimeout(timer);
    await consumer.disconnect();
    return records
      .sort((a, b) => a.partition - b.partition || Number(a.offset - b.offset))
      .map((r) => r.value);
  } finally {
    await admin.disconnect();
  }
}
