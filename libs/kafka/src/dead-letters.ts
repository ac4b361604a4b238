import type { Pool, PoolClient } from '@engage/postgres';
import type { IHeaders, Producer } from 'kafkajs';
import type { Logger } from 'pino';
import { deadLettersTotal } from './metrics.ts';

/**
 * Why a record was set aside: its bytes do not decode with the topic's schema; it decodes but the
 * consumer cannot apply it; or (an outbox row) the broker refuses it.
 */
export type DeadLetterReason = 'undecodable' | 'unapplicable' | 'unpublishable';

export interface DeadLetter {
  /** The consumer group that could not apply it, or `outbox` for a row the relay could not publish. */
  source: string;
  topic: string;
  /** Where it was read from; null for an outbox row. */
  partition: number | null;
  offset: string | null;
  key: Buffer | string | null;
  raw: Buffer | null;
  headers: IHeaders | Record<string, string>;
  reason: DeadLetterReason;
  error: string;
}

/** The `source` of a dead letter the outbox relay kept. */
export const OUTBOX_SOURCE = 'outbox';

/**
 * Keeps a record in `dead_letters` with the caller's transaction: the one that moves the offset
 * past it (or deletes the outbox row), so it is kept exactly when it is skipped. Report it with
 * `reportDeadLetters` once that transaction committed.
 */
export async function storeDeadLetter(client: PoolClient, letter: DeadLetter): Promise<void> {
  // A redelivery of an offset already kept (the offset row filters it, so only a replay) keeps one copy.
  await client.query(
    `INSERT INTO dead_letters (source, topic, partition, "offset", record_key, raw, headers, reason, error)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT DO NOTHING`,
    [
      letter.source,
      letter.topic,
      letter.partition,
      letter.offset,
      typeof letter.key === 'string' ? Buffer.from(letter.key) : letter.key,
      letter.raw,
      JSON.stringify(headersAsText(letter.headers)),
      letter.reason,
      withoutNul(letter.error),
    ],
  );
}

/**
 * Logs (at error level: an operator has a record to look at, docs/operating.md#dead-letters) and
 * counts letters whose transaction committed.
 */
export function reportDeadLetters(letters: DeadLetter[], log: Logger): void {
  for (const { source, topic, partition, offset, key, reason, error } of letters) {
    deadLettersTotal.inc({ source, topic, reason });
    log.error(
      { source, topic, partition, offset, key: key?.toString(), reason, error },
      'record set aside in dead_letters',
    );
  }
}

/** Header values as text (Kafka's are bytes; the schema and trace headers this project sets are text). */
function headersAsText(headers: DeadLetter['headers']): Record<string, string> {
  const text: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    const first = Array.isArray(value) ? value[0] : value;
    if (first !== undefined) text[withoutNul(name)] = withoutNul(first.toString());
  }
  return text;
}

/** Postgres text and jsonb refuse NUL: it is kept escaped. */
const withoutNul = (text: string) => text.replaceAll('\u0000', '\\u0000');

export interface ReplayedLetter {
  id: number;
  topic: string;
}

/**
 * Publishes the named dead letters again, byte for byte with their key and headers, each to the
 * topic it came from, and marks them replayed. Consumers that applied the record before skip it by
 * its record id (events by eventId, grants by grantId); the one that set it aside applies it (its
 * id was never claimed), or sets it aside again at its new offset. Ids of no dead letter are
 * answered in `missing`.
 */
export async function replayDeadLetters(
  pool: Pool,
  producer: Producer,
  ids: number[],
): Promise<{ replayed: ReplayedLetter[]; missing: number[] }> {
  const { rows } = await pool.query<{
    id: number;
    topic: string;
    record_key: Buffer | null;
    raw: Buffer | null;
    headers: Record<string, string>;
  }>('SELECT id, topic, record_key, raw, headers FROM dead_letters WHERE id = ANY($1) ORDER BY id', [ids]);
  const replayed: ReplayedLetter[] = [];
  for (const row of rows) {
    await producer.send({
      topic: row.topic,
      acks: -1,
      messages: [{ key: row.record_key, value: row.raw, headers: row.headers }],
    });
    await pool.query('UPDATE dead_letters SET replayed_at = now() WHERE id = $1', [row.id]);
    replayed.push({ id: Number(row.id), topic: row.topic });
  }
  return { replayed, missing: ids.filter((id) => !rows.some((row) => Number(row.id) === id)) };
}
