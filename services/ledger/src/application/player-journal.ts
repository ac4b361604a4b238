import type { JournalPageSchema } from '@engage/contracts/http/player-support.ts';
import type { Pool } from '@engage/postgres';
import type { z } from 'zod';
import { journalPage } from '../store/journal.ts';

const KINDS = { adjustment: 'Adjustment', purchase: 'Purchase', reward: 'Reward' } as const;

/** One page of a player's points journal, newest first, for operators. */
export async function readPlayerJournal(
  pool: Pool,
  environmentId: string,
  playerId: string,
  page: { before: number | undefined; limit: number },
): Promise<z.infer<typeof JournalPageSchema>> {
  // One row more than asked says whether an older page exists.
  const rows = await journalPage(pool, environmentId, playerId, { ...page, limit: page.limit + 1 });
  const shown = rows.slice(0, page.limit);
  return {
    playerId,
    entries: shown.map((r) => ({
      transactionId: r.entryId,
      kind: KINDS[r.kind],
      amount: r.amount,
      balanceAfter: r.balanceAfter,
      reason: r.reason,
      sourceRef: r.sourceRef,
      createdAtUtc: r.createdAt.toISOString(),
    })),
    nextBefore: rows.length > page.limit ? shown[shown.length - 1]!.seq : null,
  };
}
