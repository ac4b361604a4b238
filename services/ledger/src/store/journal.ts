import { execute, type PoolClient } from '@engage/postgres';
import { ledgerSql } from './tables.ts';

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
  const [row] = await execute(
    client,
    ledgerSql
      .insertInto('journal')
      .values({
        entry_id: entry.entryId,
        organization_id: entry.organizationId,
        environment_id: entry.environmentId,
        player_id: entry.playerId,
        kind: entry.kind,
        amount: entry.amount,
        balance_after: entry.balanceAfter,
        reason: entry.reason,
        idempotency_key: entry.idempotencyKey,
        source_ref: entry.sourceRef,
      })
      .returning('created_at'),
  );
  return { ...entry, createdAt: row!.created_at };
}
