import { execute, type Pool, type PoolClient } from '@engage/postgres';
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

export interface JournalRow extends JournalEntry {
  seq: number;
}

/** A player's entries newest first, older than `before` (a `seq`) when given. */
export async function journalPage(
  db: Pool,
  environmentId: string,
  playerId: string,
  page: { before: number | undefined; limit: number },
): Promise<JournalRow[]> {
  let query = ledgerSql
    .selectFrom('journal')
    .selectAll()
    .where('environment_id', '=', environmentId)
    .where('player_id', '=', playerId);
  if (page.before !== undefined) query = query.where('seq', '<', page.before);
  const rows = await execute(db, query.orderBy('seq', 'desc').limit(page.limit));
  return rows.map((r) => ({
    seq: Number(r.seq),
    entryId: r.entry_id,
    organizationId: r.organization_id,
    environmentId: r.environment_id,
    playerId: r.player_id,
    kind: r.kind,
    amount: Number(r.amount),
    balanceAfter: Number(r.balance_after),
    reason: r.reason,
    idempotencyKey: r.idempotency_key,
    sourceRef: r.source_ref,
    createdAt: r.created_at,
  }));
}
