import type { TopicDefinition } from '@engage/contracts';
import type { SchemaRegistrySettings } from '@engage/kit';
import { Kafka, type Kafka as KafkaClient, logLevel, type Producer } from 'kafkajs';
import type { Logger } from 'pino';
import { kafkajsLogMapper } from './kafkajs-log.ts';
import { rememberingPartitioner } from './partitioner.ts';
import { startSchemaRegistryMode } from './schema-registry.ts';
import {
  type KafkaSecurity,
  KafkaSecurityError,
  kafkajsSecurity,
  PLAINTEXT,
  securityFailureOf,
} from './security.ts';

export type { KafkaClient, Producer };

/**
 * A kafkajs client whose logs go through the service's own structured logger; `security` (TLS,
 * SASL) comes from the service's configuration (`withKafkaSecurity`), plaintext when left out.
 */
export function createKafka(options: {
  brokers: string[];
  clientId: string;
  log: Logger;
  security?: KafkaSecurity | undefined;
}): KafkaClient {
  return new Kafka({
    clientId: options.clientId,
    brokers: options.brokers,
    ...kafkajsSecurity(options.security ?? PLAINTEXT),
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

/**
 * One connection at start, so that a refused login or an untrusted broker certificate stops the
 * service at once with the cause, instead of the consumers and relays retrying it for ever. Any
 * other failure (the broker not up yet) is left to the clients' own retries.
 */
export async function checkKafkaSecurity(
  kafka: KafkaClient,
  security: KafkaSecurity,
  log: Logger,
): Promise<void> {
  const admin = kafka.admin({ retry: { retries: 0 } });
  try {
    await admin.connect();
    await admin.describeCluster();
  } catch (err) {
    const failure = securityFailureOf(err, security);
    if (failure) throw new KafkaSecurityError(failure, { cause: err });
    log.debug({ err }, 'Kafka not reached yet at start; the clients retry');
  } finally {
    await admin.disconnect().catch(() => {});
  }
}

/**
 * A service's Kafka client from its parsed configuration, checked once (`checkKafkaSecurity`) so a
 * refused login stops the service at start. With SCHEMA_REGISTRY_URL set, the schemas of the topics
 * in `writes` are registered first (`startSchemaRegistryMode`): a registry that cannot be reached or
 * refuses a schema stops the service too.
 */
export async function connectServiceKafka(
  env: {
    KAFKA_BROKERS: string[];
    KAFKA_CLIENT_ID?: string | undefined;
    KAFKA_TOPIC_PREFIX: string;
    kafkaSecurity: KafkaSecurity;
    schemaRegistry: SchemaRegistrySettings | undefined;
  },
  service: string,
  log: Logger,
  options: { writes: readonly Pick<TopicDefinition<unknown>, 'base' | 'type' | 'schemaFile'>[] },
): Promise<KafkaClient> {
  await startSchemaRegistryMode(env.schemaRegistry, {
    writes: options.writes,
    topicPrefix: env.KAFKA_TOPIC_PREFIX,
    log,
  });
  const kafka = createKafka({
    brokers: env.KAFKA_BROKERS,
    clientId: env.KAFKA_CLIENT_ID ?? service,
    log,
    security: env.kafkaSecurity,
  });
  await checkKafkaSecurity(kafka, env.kafkaSecurity, log);
  return kafka;
}
