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
