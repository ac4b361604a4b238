import type { PipelinedTransaction, Pool } from '@engage/postgres';
import { effectOutboxRows } from '../domain/outbox-rows.ts';
import { decideBatch, type StepResult, type WriteOp } from '../domain/write-decisions.ts';
import { readBatchState, writeBatchEffects } from '../store/write-batch.ts';
import { createPlayerBatcher, type PlayerBatcher, type Settled } from './player-batcher.ts';

/** The process's queue of adjustments and purchases (see player-batcher.ts). */
export type WriteQueue = PlayerBatcher<WriteOp, StepResult>;

export interface WriteQueueOptions {
  topicPrefix: string;
  /** Most operations in one transaction (1: every operation commits alone). */
  maxBatch: number;
  /** Transactions running at once, each on its own connection. */
  batchesInFlight?: number;
}

export function createWriteQueue(pool: Pool, options: WriteQueueOptions): WriteQueue {
  return createPlayerBatcher(pool, {
    maxBatch: options.maxBatch,
    ...(options.batchesInFlight === undefined ? {} : { batchesInFlight: options.batchesInFlight }),
    runBatch: (tx, ops) => applyWrites(tx, ops, options.topicPrefix),
  });
}

/**
 * A batch of adjustments and purchases, READ COMMITTED, in a constant number of round trips whatever
 * its size: read and lock what the operations need (sent with the BEGIN), decide each in arrival
 * order (a player's later operations see the earlier ones' effects), then write every effect, the
 * journal records' outbox rows among them, in one statement sent with the COMMIT.
 */
export async function applyWrites(
  tx: PipelinedTransaction,
  ops: WriteOp[],
  topicPrefix: string,
): Promise<Settled<StepResult>[]> {
  const state = await readBatchState(tx, ops);
  const { results, effects } = decideBatch(ops, state);
  // Replays, conflicts and refusals of the definition write nothing.
  if (effects.keys.length > 0 || effects.journal.length > 0 || effects.purchases.length > 0)
    await writeBatchEffects(tx, effects, effectOutboxRows(effects, topicPrefix));
  return results;
}
