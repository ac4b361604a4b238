import { type TopicDefinition, topicName } from '@engage/contracts';
import { createSleeper } from '@engage/kit';
import { type Pool, type PoolClient, withPipelinedTransaction, withTransaction } from '@engage/postgres';
import type { Producer } from 'kafkajs';
import type { Logger } from 'pino';
import { connectProducer, type KafkaClient } from './client.ts';
import { type DeadLetter, OUTBOX_SOURCE, reportDeadLetters, storeDeadLetter } from './dead-letters.ts';
import { errorText, isTransient } from './failures.ts';
import { produceFailures } from './metrics.ts';
import { toMessages } from './produce.ts';

/**
 * Adds records to the service's outbox inside the caller's transaction. They are published by the
 * relay after the transaction commits, and never if it rolls back.
 */
export async function enqueueOutbox<T>(
  client: PoolClient,
  def: TopicDefinition<T>,
  prefix: string,
  records: T[],
): Promise<void> {
  await enqueueOutboxRows(client, outboxRows(def, prefix, records));
}

/** One record as the outbox holds it. */
export interface OutboxRow {
  topic: string;
  key: string;
  value: Buffer;
  headers: string;
}

/** Records of one topic as outbox rows, to enqueue with other topics' in one statement. */
export function outboxRows<T>(def: TopicDefinition<T>, prefix: string, records: T[]): OutboxRow[] {
  const topic = topicName(def, prefix);
  const messages = toMessages(def, records);
  // toMessages gives every record of one call the same headers.
  const headers = JSON.stringify(messages[0]?.headers ?? {});
  return messages.map((m) => ({ topic, key: String(m.key), value: m.value as Buffer, headers }));
}

/** `enqueueOutbox` for rows of any topics: one statement, published in the given order. */
export async function enqueueOutboxRows(client: PoolClient, rows: OutboxRow[]): Promise<void> {
  if (rows.length === 0) return;
  await client.query({
    name: 'engage.enqueue-outbox',
    text: `INSERT INTO outbox (topic, key, value, headers)
     SELECT * FROM unnest($1::text[], $2::text[], $3::bytea[], $4::jsonb[])`,
    values: [
      rows.map((r) => r.topic),
      rows.map((r) => r.key),
      rows.map((r) => r.value),
      rows.map((r) => r.headers),
    ],
  });
}

export interface OutboxRelay {
  /** Publish soon (call after a commit that enqueued records). */
  kick: () => void;
  /** Publishes until the outbox is empty once, then stops. */
  stop: () => Promise<void>;
}

/**
 * One relay at a time per schema and topic prefix publishes, so per-key order is kept: the advisory
 * lock is keyed by this constant, the schema and the prefix (advisory locks are per database, and
 * services share one). A relay publishes only its own prefix's rows, so deployments (or test stacks)
 * sharing a database never publish, or wait on, each other's.
 */
const RELAY_LOCK = 0x6e676167;

/**
 * The relay's advisory lock (tried once: the CTE is materialized) and, only when it is held, the
 * first `$2` rows of topics named with the prefix `$3` in id order, deleted. One row with `held` and a null id when there is nothing to
 * publish or another relay holds the lock.
 */
const TAKE_NEXT_ROWS = `WITH relay_lock AS MATERIALIZED (
    SELECT pg_try_advisory_xact_lock($1, hashtext(current_schema() || ':' || $3)) AS held
  ), taken AS (
    DELETE FROM outbox WHERE id IN (
      SELECT id FROM outbox WHERE (SELECT held FROM relay_lock) AND starts_with(topic, $3)
      ORDER BY id LIMIT $2
    ) RETURNING id, topic, key, value, headers
  )
  SELECT l.held, t.id, t.topic, t.key, t.value, t.headers
  FROM relay_lock l LEFT JOIN taken t ON true
  ORDER BY t.id`;

/** A row of TAKE_NEXT_ROWS (the row with a null id has nothing else either). */
interface OutboxTaken {
  held: boolean;
  id: number | null;
  topic: string;
  key: string;
  value: Buffer;
  headers: Record<string, string>;
}

/** Attempts at publishing one row the broker keeps refusing (too large, invalid) before it is set aside. */
const ROW_ATTEMPTS = 3;

/**
 * Publishes outbox rows in id order and deletes them in the same transaction as a successful send.
 * A crash after the send and before the delete publishes those rows again: consumers dedupe by the
 * record's own id, which makes the effect exactly-once.
 *
 * A send that fails for a reason that is not transient (the broker refuses a record as too large or
 * invalid) is tried again row by row; a row that keeps failing is moved to dead_letters (reason
 * `unpublishable`) and the rows after it go on. Transient failures (a broker away) are retried for
 * as long as they last.
 */
export function startOutboxRelay(options: {
  pool: Pool;
  /** The relay connects (and after a failed send, replaces) its own idempotent producer. */
  kafka: KafkaClient;
  /** The deployment's KAFKA_TOPIC_PREFIX: the relay publishes the rows of its topics only. */
  topicPrefix: string;
  log: Logger;
  idleMs?: number;
  batchSize?: number;
  /**
   * After publishing less than a full batch, wait this long (kicks do not cut it short) so the next
   * send carries more records: fewer round trips per record under steady load, at most this much
   * later. Default 0: publish again at once.
   */
  lingerMs?: number;
}): OutboxRelay {
  const { pool, kafka, log } = options;
  // After a failed send a kafkajs idempotent producer can reuse sequence numbers the broker already
  // took, and a later batch is then dropped as a duplicate while reported sent. A failed send
  // therefore retires the producer; the next attempt connects a new one (a new producer id).
  let producer: Producer | undefined;
  const currentProducer = async () => {
    producer ??= await connectProducer(kafka);
    return producer;
  };
  const retireProducer = async () => {
    const retired = producer;
    producer = undefined;
    await retired?.disconnect().catch(() => undefined);
  };
  const idleMs = options.idleMs ?? 100;
  const limit = options.batchSize ?? 500;
  const lingerMs = options.lingerMs ?? 0;
  let running = true;
  const sleeper = createSleeper();
  // Its own sleeper so that kicks do not cut it short; only stop does.
  const linger = createSleeper();
  let failures = 0;
  /** Publishing one row at a time to find the one the broker refuses, and its failed attempts. */
  let isolating = false;
  let rowFailures = 0;
  let isolatedPublished = 0;

  // One statement takes the relay's lock and the next rows (deleting them: the delete commits only
  // after the send succeeded; a failed send rolls it back). On a pipelining pool it goes out with
  // the BEGIN, and the COMMIT after the send: two round trips per publish.
  const publishOnce = (rowsAtMost = limit) =>
    withPipelinedTransaction(pool, async (tx) => {
      const { rows } = await tx.query<OutboxTaken>({
        text: TAKE_NEXT_ROWS,
        values: [RELAY_LOCK, rowsAtMost, options.topicPrefix],
      });
      // Another relay of this schema is publishing: nothing to do here now.
      if (!rows[0]?.held) return 'busy' as const;
      if (rows[0].id === null) return 0;
      const byTopic = new Map<string, { key: string; value: Buffer; headers: Record<string, string> }[]>();
      for (const row of rows) {
        const list = byTopic.get(row.topic) ?? [];
        list.push({ key: row.key, value: row.value, headers: row.headers });
        byTopic.set(row.topic, list);
      }
      try {
        await (await currentProducer()).sendBatch({
          acks: -1,
          topicMessages: [...byTopic].map(([topic, messages]) => ({ topic, messages })),
        });
      } catch (err) {
        for (const topic of byTopic.keys()) produceFailures.inc({ topic });
        throw err;
      }
      return rows.length;
    });

  /** Moves the first row to dead_letters, unless it is gone (another relay published it meanwhile). */
  const setAsideFirstRow = async (err: unknown) => {
    const letter = await withTransaction(pool, async (client) => {
      const { rows } = await client.query<OutboxTaken>(TAKE_NEXT_ROWS, [RELAY_LOCK, 1, options.topicPrefix]);
      const row = rows[0];
      if (!row?.held || row.id === null) return undefined;
      const kept: DeadLetter = {
        source: OUTBOX_SOURCE,
        topic: row.topic,
        partition: null,
        offset: null,
        key: row.key,
        raw: row.value,
        headers: row.headers,
        reason: 'unpublishable',
        error: errorText(err),
      };
      await storeDeadLetter(client, kept);
      return kept;
    });
    if (letter) reportDeadLetters([letter], log);
  };

  const loop = (async () => {
    while (running) {
      let published = 0;
      try {
        const result = await publishOnce(isolating ? 1 : limit);
        published = result === 'busy' ? 0 : result;
        failures = 0;
        rowFailures = 0;
        // Back to whole batches once a batch's worth of rows went out one by one.
        if (isolating && (published === 0 || ++isolatedPublished >= limit)) isolating = false;
      } catch (err) {
        failures++;
        log.warn({ err, failures }, 'outbox publish failed; will retry');
        await retireProducer();
        if (!isTransient(err)) {
          if (!isolating) {
            isolating = true;
            isolatedPublished = 0;
          } else if (++rowFailures >= ROW_ATTEMPTS) {
            await setAsideFirstRow(err).then(
              () => {
                isolating = false;
                rowFailures = 0;
                failures = 0;
              },
              (setAsideErr) =>
                log.warn({ err: setAsideErr }, 'setting an outbox row aside failed; will retry'),
            );
          }
        }
      }
      if (published > 0 && published < limit && failures === 0 && lingerMs > 0 && running && !isolating) {
        await linger.sleep(lingerMs);
      }
      if (published === 0 || failures > 0) {
        const delay = failures > 0 ? Math.min(5_000, 100 * 2 ** failures) : idleMs;
        await sleeper.sleep(delay);
      }
    }
    // Drain what committed before shutdown so nothing waits for the next start. While another relay
    // of the schema holds the lock, wait for it a little: it may be about to stop too.
    for (let i = 0; i < 50; i++) {
      const result = await publishOnce().catch(() => 0);
      if (result === 0) break;
      if (result === 'busy') await new Promise((resolve) => setTimeout(resolve, 100));
    }
  })();

  return {
    kick: () => sleeper.wake(),
    stop: async () => {
      running = false;
      sleeper.wake();
      linger.wake();
      await loop;
      await retireProducer();
    },
  };
}

export type { TopicDefinition };
