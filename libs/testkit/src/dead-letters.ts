import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { type TopicDefinition, topicName } from '@engage/contracts';
import { connectProducer, createKafka, toMessages } from '@engage/kafka';
import { createLogger } from '@engage/kit';
import type { Pool } from '@engage/postgres';
import { expect } from 'vitest';
import { eventually } from './events.ts';
import type { ServiceProcess } from './process.ts';
import { stackConfig } from './stack.ts';

/**
 * Produces records to one partition of a topic, in order, straight to the broker (as a hostile or
 * buggy producer would, past every check of the gateway).
 */
export async function produceToPartition<T>(
  prefix: string,
  definition: TopicDefinition<T>,
  partition: number,
  records: T[],
): Promise<void> {
  const log = createLogger('test-producer', 'warn');
  const producer = await connectProducer(
    createKafka({ brokers: stackConfig().brokers, clientId: 'test-partition-producer', log }),
  );
  try {
    const messages = toMessages(definition, records).map((m) => ({ ...m, partition }));
    await producer.send({ topic: topicName(definition, prefix), acks: -1, messages });
  } finally {
    await producer.disconnect();
  }
}

export interface StoredDeadLetter {
  id: number;
  source: string;
  partition: number | null;
  offset: number | null;
  reason: string;
  error: string;
  raw: Buffer | null;
  replayed: boolean;
}

/** The dead letters kept in a service's schema for one topic, in id order. */
export async function deadLettersOf(pool: Pool, topic: string): Promise<StoredDeadLetter[]> {
  const { rows } = await pool.query<StoredDeadLetter>(
    `SELECT id::int, source, partition, "offset"::int AS offset, reason, error, raw,
            replayed_at IS NOT NULL AS replayed
     FROM dead_letters WHERE topic = $1 ORDER BY id`,
    [topic],
  );
  return rows;
}

/** Runs the operator's replay tool (`npm run replay-dead-letters -- <schema> <id>...`). */
export function replayDeadLetters(schema: string, ids: number[]): { status: number | null; output: string } {
  const { repoRoot, databaseUrl, brokers } = stackConfig();
  const run = spawnSync(
    process.execPath,
    [join(repoRoot, 'libs/kafka/src/tools/replay-dead-letters.ts'), schema, ...ids.map(String)],
    {
      env: { ...process.env, DATABASE_URL: databaseUrl, KAFKA_BROKERS: brokers.join(',') },
      encoding: 'utf8',
    },
  );
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

/** A sample's value on a service's metrics page, or undefined when it has none with these labels. */
export async function scrapeMetric(
  metricsUrl: string,
  name: string,
  labels: Record<string, string>,
): Promise<number | undefined> {
  return (await scrapeMetricSamples(metricsUrl, name, labels))[0]?.value;
}

/** Every sample of a metric on a service's metrics page whose labels include `labels`. */
export async function scrapeMetricSamples(
  metricsUrl: string,
  name: string,
  labels: Record<string, string>,
): Promise<{ labels: Record<string, string>; value: number }[]> {
  const page = await (await fetch(metricsUrl)).text();
  const samples: { labels: Record<string, string>; value: number }[] = [];
  for (const line of page.split('\n')) {
    const match = /^(\w+)\{(.*)\} (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const found: Record<string, string> = Object.fromEntries(
      [...match[2]!.matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1]!, m[2]!]),
    );
    if (Object.entries(labels).every(([key, value]) => found[key] === value))
      samples.push({ labels: found, value: Number(match[3]) });
  }
  return samples;
}

/**
 * What an events consumer that met one poison record at `offset` of partition 0 must show: the
 * record set aside once as one the API refuses (a NUL in its ids and text), the metrics saying so
 * with no lag left, no consumer restart, and a replay of it set aside again (nothing applied twice:
 * the caller checks its own state before and after).
 */
export async function expectPoisonSetAsideAndReplayed(options: {
  pool: Pool;
  service: ServiceProcess;
  schema: string;
  topic: string;
  group: string;
  offset: number;
}): Promise<void> {
  const { pool, service, schema, topic, group, offset } = options;
  const letters = await deadLettersOf(pool, topic);
  expect(letters).toMatchObject([
    { source: group, partition: 0, offset, reason: 'undecodable', replayed: false },
  ]);
  // Refused as it is decoded, before anything is applied: the API refuses such text.
  expect(letters[0]!.error).toMatch(/what the API refuses: playerId/);
  const lettersCounted = () =>
    scrapeMetric(service.metricsUrl, 'kafka_dead_letters_total', { source: group, topic });
  expect(await lettersCounted()).toBe(1);
  expect(
    await scrapeMetric(service.metricsUrl, 'kafka_consumer_lag_records', { group, topic, partition: '0' }),
  ).toBe(0);
  // The process lived on and kafkajs never had to restart the consumer.
  expect(service.logs()).not.toMatch(/Restarting the consumer|consumer stopped/);

  // Replayed unchanged, it is still refused: set aside again where its key's partition took it
  // (the replay sends it by key, as the gateway did).
  const replay = replayDeadLetters(schema, [letters[0]!.id]);
  expect(replay.status, replay.output).toBe(0);
  await eventually('the replayed record set aside again', async () => {
    const now = await deadLettersOf(pool, topic);
    return now.length === 2 ? now : undefined;
  });
  expect(await deadLettersOf(pool, topic)).toMatchObject([
    { offset, replayed: true },
    { source: group, reason: 'undecodable', replayed: false },
  ]);
  expect(await lettersCounted()).toBe(2);
}
