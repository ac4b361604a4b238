import { allTopics, type TopicDefinition, topicName } from '@engage/contracts';
import {
  createKafka,
  decodeRecord,
  type KafkaClient,
  loadWriterSchemas,
  startSchemaRegistryMode,
} from '@engage/kafka';
import type { KafkaSecurity, SchemaRegistrySettings } from '@engage/kit';
import type { KafkaMessage } from 'kafkajs';
import pino from 'pino';

export interface TailSettings {
  brokers: string[];
  topicPrefix: string;
  kafkaSecurity: KafkaSecurity;
  schemaRegistry: SchemaRegistrySettings | undefined;
}

export interface TailRequest {
  /** The topic's name without the deployment prefix, e.g. `events.accepted.v1`. */
  topic: string;
  /** Start at this offset in every partition read (the earliest one still kept, if it is older). */
  fromOffset?: bigint | undefined;
  /** Start at the first record written at or after this time. */
  fromTime?: Date | undefined;
  /** Only this partition. */
  partition?: number | undefined;
  environmentId?: string | undefined;
  playerId?: string | undefined;
  /** Keep waiting for new records; otherwise stop at the end the topic had when the tail started. */
  follow?: boolean | undefined;
  /** Stop after printing this many records. */
  limit?: number | undefined;
}

/** One printed line: where the record is, and the record decoded by its topic's schema. */
export interface TailLine {
  topic: string;
  partition: number;
  offset: string;
  timestamp: string;
  key: string | null;
  value: unknown;
}

export class UnknownTopicError extends Error {
  override name = 'UnknownTopicError';
}

/** The catalog's topic of that name, with or without the deployment prefix. */
export function topicOfName(name: string, prefix: string): TopicDefinition<unknown> {
  const base = prefix !== '' && name.startsWith(prefix) ? name.slice(prefix.length) : name;
  const found = allTopics().find((def) => def.base === base);
  if (!found) {
    const known = allTopics()
      .map((def) => def.base)
      .join(', ');
    throw new UnknownTopicError(`no topic '${name}' in the catalog; the topics are ${known}`);
  }
  return found;
}

/**
 * Reads a topic's records from an offset or a time, decodes each by the topic's Avro schema (plain
 * or in the registry's wire format) and hands the ones for the environment and player asked to
 * `print`. Decimals come out as exact decimal text (logical-types.ts), never as a double.
 */
export async function tailTopic(
  settings: TailSettings,
  request: TailRequest,
  print: (line: TailLine) => void,
  warn: (text: string) => void,
): Promise<void> {
  const def = topicOfName(request.topic, settings.topicPrefix);
  const topic = topicName(def, settings.topicPrefix);
  // kafkajs and the registry client log to stderr, so that stdout holds only the records.
  const log = pino({ level: 'error' }, pino.destination(2));
  await startSchemaRegistryMode(settings.schemaRegistry, {
    writes: [],
    topicPrefix: settings.topicPrefix,
    log,
  });
  const kafka = createKafka({
    brokers: settings.brokers,
    clientId: 'engage-cli-tail',
    log,
    security: settings.kafkaSecurity,
  });
  const starts = await startOffsets(kafka, topic, request);
  const ends = new Map(starts.map((s) => [s.partition, s.end]));
  const pending = new Set(starts.filter((s) => s.start < s.end).map((s) => s.partition));
  if (!request.follow && pending.size === 0) return;

  const consumer = kafka.consumer({ groupId: `engage-cli-tail-${crypto.randomUUID()}` });
  const { promise: finished, resolve, reject: fail } = Promise.withResolvers<void>();
  // Batches fetched before the consumer disconnects print nothing once the tail is done.
  let done = false;
  const finish = () => {
    done = true;
    resolve();
  };
  let printed = 0;
  const wanted = new Set(starts.map((s) => s.partition));
  consumer.on(consumer.events.CRASH, ({ payload }) => fail(payload.error));
  await consumer.connect();
  try {
    await consumer.subscribe({ topic, fromBeginning: true });
    await consumer.run({
      autoCommit: false,
      eachBatchAutoResolve: false,
      eachBatch: async ({ batch, resolveOffset }) => {
        if (done || !wanted.has(batch.partition)) return;
        await loadWriterSchemas(def, [batch.messages]);
        for (const message of batch.messages) {
          resolveOffset(message.offset);
          const offset = BigInt(message.offset);
          const end = ends.get(batch.partition) ?? 0n;
          if (!request.follow && offset >= end) break;
          if (message.value) {
            const line = lineOf(def, topic, batch.partition, message, warn);
            if (line && matches(line.value, request)) {
              print(line);
              printed++;
              if (request.limit !== undefined && printed >= request.limit) return finish();
            }
          }
          if (!request.follow && offset + 1n >= end) pending.delete(batch.partition);
        }
        if (!request.follow && pending.size === 0) finish();
      },
    });
    for (const { partition, start } of starts) consumer.seek({ topic, partition, offset: String(start) });
    await finished;
  } finally {
    await consumer.disconnect();
  }
}

interface PartitionRange {
  partition: number;
  start: bigint;
  /** The offset after the last record when the tail started. */
  end: bigint;
}

async function startOffsets(
  kafka: KafkaClient,
  topic: string,
  request: TailRequest,
): Promise<PartitionRange[]> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    const bounds = await admin.fetchTopicOffsets(topic);
    const byTime =
      request.fromTime === undefined
        ? undefined
        : new Map(
            (await admin.fetchTopicOffsetsByTimestamp(topic, request.fromTime.getTime())).map((p) => [
              p.partition,
              BigInt(p.offset),
            ]),
          );
    return bounds
      .filter((b) => request.partition === undefined || b.partition === request.partition)
      .map((b) => {
        const low = BigInt(b.low);
        const wanted = byTime?.get(b.partition) ?? request.fromOffset ?? low;
        return { partition: b.partition, start: wanted > low ? wanted : low, end: BigInt(b.high) };
      });
  } finally {
    await admin.disconnect();
  }
}

function lineOf(
  def: TopicDefinition<unknown>,
  topic: string,
  partition: number,
  message: KafkaMessage,
  warn: (text: string) => void,
): TailLine | undefined {
  try {
    const value = decodeRecord(def, message.value as Buffer, message.headers);
    return {
      topic,
      partition,
      offset: message.offset,
      timestamp: new Date(Number(message.timestamp)).toISOString(),
      key: message.key === null ? null : message.key.toString('utf8'),
      value,
    };
  } catch (err) {
    warn(`partition ${partition} offset ${message.offset}: cannot decode: ${(err as Error).message}`);
    return undefined;
  }
}

/** A record without the field asked for (an api-keys.v1 record has no player) does not match. */
function matches(value: unknown, request: TailRequest): boolean {
  const record = value as { environmentId?: unknown; playerId?: unknown };
  if (request.environmentId !== undefined && record.environmentId !== request.environmentId) return false;
  if (request.playerId !== undefined && record.playerId !== request.playerId) return false;
  return true;
}
