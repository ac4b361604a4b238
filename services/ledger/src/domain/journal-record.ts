import type { PointsJournalEntry } from '@engage/contracts';
import type { JournalEntry } from '../store/journal.ts';

/** The points.journal.v1 record of a committed journal entry. */
export function journalRecord(entry: JournalEntry & { marketplaceItemKey?: string }): PointsJournalEntry {
  return {
    entryId: entry.entryId,
    organizationId: entry.organizationId,
    environmentId: entry.environmentId,
    playerId: entry.playerId,
    kind: entry.kind,
    amount: entry.amount,
    balanceAfter: entry.balanceAfter,
    reason: entry.reason,
    idempotencyKey: entry.idempotencyKey,
    sourceRef: entry.sourceRef,
    occurredAt: entry.createdAt.toISOString(),
    marketplaceItemKey: entry.marketplaceItemKey ?? null,
  };
}
