import { TransactionRetriesExhausted } from '@engage/postgres';
import { concurrentUpdate } from '../domain/problems.ts';
import type { Outcome, StepResult, WriteOp } from '../domain/write-decisions.ts';
import type { WriteQueue } from './write-queue.ts';

export type { Outcome, StepResult };

export interface WriteDeps {
  batcher: WriteQueue;
  /** Called after a commit that enqueued journal records, so the relay publishes them soon. */
  onJournalCommitted: () => void;
}

/**
 * Queues one request's operation behind the player's earlier ones. Serialization failures past the
 * retries become points.concurrent_update (nothing written); a commit that journaled wakes the relay.
 */
export async function runForPlayer(deps: WriteDeps, op: WriteOp): Promise<Outcome> {
  const result = await deps.batcher
    .run(`${op.environmentId}\u0000${op.playerId}`, op)
    .catch((err: unknown) => {
      throw err instanceof TransactionRetriesExhausted ? concurrentUpdate() : err;
    });
  if (result.journaled) deps.onJournalCommitted();
  return result.outcome;
}
