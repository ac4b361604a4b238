import { randomUUID } from 'node:crypto';
import { type AcceptedEvent, topicName, topics } from '@engage/contracts';
import { createKafka, decodeRecord } from '@engage/kafka';
import { createLogger } from '@engage/kit';
import { createPool } from '@engage/postgres';
import { createRedis } from '@engage/redis';
import { type RunSummary, throughputSummary } from '../measure.ts';
import type { BenchStack } from '../stack.ts';

/** Partition batches applied at once: one's decoding overlaps another's round trips. */
export const PARTITIONS_AT_ONCE = 4;
/** Longest the reference may take to apply the topic before the run gives up. */
const TIMEOUT_MS = 10 * 60_000;

/**
 * The reference pipeline: a kafkajs consumer of the accepted-events topic, from its start, that
 * decodes every record with the project's codec and applies each batch with one set-based Postgres
 * upsert (events and score per player) and one Redis pipeline (ZINCRBY per player on a board of its
 * own): no rules, no exactly-once bookkeeping. Its rate over what the topic holds when it starts.
 */
export async function rawPipeline(stack: BenchStack): Promise<RunSummary> {
  const topic = topicName(topics.eventsAccepted, stack.topicPrefix);
  const kafka = createKafka({
    brokers: stack.infra.brokers,
    clientId: 'bench-raw-pipeline',
    log: createLogger('bench', 'error'),
  });
  const admin = kafka.admin();
  await admin.connect();
  const total = (await admin.fetchTopicOffsets(topic)).reduce((sum, p) => sum + Number(p.high), 0);
  await admin.disconnect();

  const table = `bench_raw_pipeline_${randomUUID().replaceAll('-', '')}`;
  const boardKey = `${stack.topicPrefix}raw-pipeline-board`;
  const db = createPool({ url: stack.infra.databaseUrl, schema: 'public', max: PARTITIONS_AT_ONCE });
  const redis = createRedis(stack.infra.redisUrl, { connectionName: 'bench-raw-pipeline' });
  await db.query(
    `CREATE TABLE ${table} (player_id text PRIMARY KEY, events bigint NOT NULL, score numeric NOT NULL)`,
  );
  const consumer = kafka.consumer({ groupId: `bench-raw-pipeline-${randomUUID()}`, maxWaitTimeInMs: 100 });
  try {
    await consumer.connect();
    await consumer.subscribe({ topic, fromBeginning: true });
    let applied = 0;
    let first: number | undefined;
    let finished: (error?: unknown) => void = () => {};
    const done = new Promise<void>((resolve, reject) => {
      finished = (error) => (error ? reject(error) : resolve());
    });
    await consumer.run({
      partitionsConsumedConcurrently: PARTITIONS_AT_ONCE,
      eachBatch: async ({ batch }) => {
        first ??= performance.now();
        const players = new Map<string, { events: number; score: number }>();
        for (const message of batch.messages) {
          if (!message.value) continue;
          const event = decodeRecord<AcceptedEvent>(topics.eventsAccepted, message.value);
          const score = Number(event.properties.score?.number ?? 0);
          const player = players.get(event.playerId);
          if (player) {
            player.events++;
            player.score += score;
          } else players.set(event.playerId, { events: 1, score });
        }
        try {
          if (players.size > 0) {
            const ids = [...players.keys()];
            const totals = [...players.values()];
            await db.query(
              `INSERT INTO ${table} AS t (player_id, events, score)
               SELECT * FROM unnest($1::text[], $2::bigint[], $3::numeric[])
               ON CONFLICT (player_id) DO UPDATE SET events = t.events + excluded.events, score = t.score + excluded.score`,
              [ids, totals.map((p) => p.events), totals.map((p) => p.score)],
            );
            const pipeline = redis.pipeline();
            for (const [id, player] of players) pipeline.zincrby(boardKey, player.score, id);
            await pipeline.exec();
          }
        } catch (err) {
          finished(err);
          throw err;
        }
        applied += batch.messages.length;
        if (applied >= total) finished();
      },
    });
    if (total === 0) finished();
    const timeout = setTimeout(
      () => finished(new Error(`the raw pipeline applied ${applied} of ${total} events`)),
      TIMEOUT_MS,
    );
    await done;
    clearTimeout(timeout);
    const seconds = (performance.now() - (first ?? performance.now())) / 1000;
    return throughputSummary(applied, seconds);
  } finally {
    await consumer.disconnect();
    await db.query(`DROP TABLE IF EXISTS ${table}`);
    await redis.del(boardKey);
    await db.end();
    await redis.quit();
  }
}
