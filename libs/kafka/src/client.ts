import { Kafka, type Kafka as KafkaClient, logLevel, type Producer } from 'kafkajs';
import type { Logger } from 'pino';
import { kafkajsLogMapper } from './kafkajs-log.ts';
import { rememberingPartitioner } from './partitioner.ts';

export type { KafkaClient, Producer };

/** A kafkajs client whose logs go through the service's own structured logger. */
export function createKafka(options: { brokers: string[]; clientId: string; log: Logger }): KafkaClient {
  return new Kafka({
    clientId: options.clientId,
    brokers: options.brokers,
    connectionTimeout: 5_000,
    requestTimeout: 30_000,
    retry: { initialRetryTime: 100, retries: 8, maxRetryTime: 5_000 },
    logLevel: logLevel.WARN,
    logCreator: () => {
      const mapped = kafkajsLogMapper();
      return (entry) => {
        const { level, message, fields } = mapped(entry.level, entry.log);
        options.log[level]({ kafka: entry.namespace, ...fields }, message);
      };
    },
  });
}

/**
 * The idempotent producer every service uses: acks from all in-sync replicas, one request in
 * flight per broker so retries cannot reorder one player's records. Partitions are the default
 * partitioner's (murmur2 of the key), remembered per key. Its retries are the client's, bounded:
 * an outbox send holds a Postgres transaction and must fail in bounded time (docs/operating.md).
 */
export async function connectProducer(kafka: KafkaClient): Promise<Producer> {
  const producer = kafka.producer({
    idempotent: true,
    maxInFlightRequests: 1,
    allowAutoTopicCreation: false,
    createPartitioner: rememberingPartitioner,
  });
  await producer.connect();
  return producer;
}
