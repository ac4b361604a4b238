import type { PoolClient } from '@engage/postgres';

export type JournalKind = 'adjustment' | 'purchase' | 'reward';

export interface NewJournalEntry {
  entryId: string;
  organizationId: string;
  environmentId: string;
  playerId: string;
  kind: JournalKind;
  amount: number;
  balanceAfter: number;
  reason: string | null;
  idempotencyKey: string | null;
  sourceRef: string | null;
}

export interface JournalEntry extends NewJournalEntry {
  createdAt: Date;
}

/** Appends one entry to the append-only journal (a trigger refuses updates and deletes). */
export async function appendJournalEntry(client: PoolClient, entry: NewJournalEntry): Promise<JournalEntry> {
  const { rows } = await client.query<{ created_at: Date }>(
    `INSERT INTO journal (entry_id, organization_id, environment_id, player_id, kind, amount, balance_after,
                          reason, idempotency_key, source_ref)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
     RETURNING created_at`,
    [
      entry.entryId,
      entry.organizationId,
      entry.environmentId,
      entry.playerId,
      entry.kind,
      entry.amount,
      entry.balanceAfter,
      entry.reason,
      entry.idempotencyKey,
      entry.sourceRef,
    ],
  );
  return { ...entry, createdAt: rows[0]!.created_at };
}

/** The idempotency key whose stored answer is written with the entry. */
export interface AnswerUnderKey {
  ref: { environmentId: string; playerId: string; key: string };
  status: number;
  body: unknown;
}

/**
 * Appends a journal entry together with its outbox record and, when given, the answer stored under
 * the request's key: one statement (one round trip) instead of three. `createdAt` is the
 * application's clock, so the record can be encoded before the statement is sent.
 */
export async function appendJournalEntryWithRecord(
  client: PoolClient,
  entry: JournalEntry,
  outbox: { topic: string; key: string; value: Buffer; headers: Record<string, unknown> },
  answer?: AnswerUnderKey,
): Promise<void> {
  await client.query(
    `WITH journal_entry AS (
       INSERT INTO journal (entry_id, organization_id, environment_id, player_id, kind, amount, balance_after,
                            reason, idempotency_key, source_ref, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
     ), journal_record AS (
       INSERT INTO outbox (topic, key, value, headers) VALUES ($12, $13, $14, $15)
     ), stored_answer AS (
       UPDATE idempotency_keys SET response_status = $17, response_body = $18
       WHERE $16::text IS NOT NULL AND environment_id = $3 AND player_id = $4 AND key = $16::text
     )
     SELECT 1`,
    [
      entry.entryId,
      entry.organizationId,
      entry.environmentId,
      entry.playerId,
      entry.kind,
      entry.amount,
      entry.balanceAfter,
      entry.reason,
      entry.idempotencyKey,
      entry.sourceRef,
      entry.createdAt,
      outbox.topic,
      outbox.key,
      outbox.value,
      JSON.stringify(outbox.headers),
      answer?.ref.key ?? null,
      answer?.status ?? null,
      answer ? JSON.stringify(answer.body) : null,
    ],
  );
}
