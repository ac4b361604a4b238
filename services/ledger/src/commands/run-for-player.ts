import { TransactionRetriesExhausted } from '@engage/postgres';
import type { StoredResponse } from '../domain/idempotency.ts';
import { concurrentUpdate } from '../domain/problems.ts';
import type { PlayerRef } from '../store/balances.ts';
import type { PlayerBatcher, Step } from './player-batcher.ts';

export interface Outcome extends StoredResponse {
  /** True when the response is the stored outcome of an earlier request with the same key. */
  replayed: boolean;
}

/** What a write step returns: the answer, and whether it enqueued journal records to publish. */
export interface StepResult {
  outcome: Outcome;
  journaled: boolean;
}

export interface WriteDeps {
  batcher: PlayerBatcher;
  /** Called after a commit that enqueued journal records, so the relay publishes them soon. */
  onJournalCommitted: () => void;
}

/**
 * Runs one request's write step in the player's queue. Serialization failures past the retries become
 * points.concurrent_update (nothing written); a commit that journaled wakes the outbox relay.
 */
export async function runForPlayer(
  deps: WriteDeps,
  player: PlayerRef,
  step: Step<StepResult>,
): Promise<Outcome> {
  const result = await deps.batcher
    .run(`${player.environmentId}\u0000${player.playerId}`, step)
    .catch((err: unknown) => {
      throw err instanceof TransactionRetriesExhausted ? concurrentUpdate() : err;
    });
  if (result.journaled) deps.onJournalCommitted();
  return result.outcome;
}
