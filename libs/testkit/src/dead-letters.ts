import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { type TopicDefinition, topicName } from '@engage/contracts';
import { connectProducer, createKafka, toMessages } from '@engage/kafka';
import { createLogger } from '@engage/kit';
import type { Pool } from '@engage/postgres';
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
  const page = await (await fetch(metricsUrl)).text();
  for (const line of page.split('\n')) {
    const match = /^(\w+)\{(.*)\} (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const found = Object.fromEntries(
      [...match[2]!.matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]),
    );
    if (Object.entries(labels).every(([key, value]) => found[key] === value)) return Number(match[3]);
  }
  return undefined;
}
