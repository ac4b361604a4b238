import { type Problem, retry } from '@engage/kit';
import type { PipelinedTransaction, Pool } from '@engage/postgres';
import { CommitOutcomeUnknown, withPipelinedTransaction } from '@engage/postgres';

/** One operation's answer: its value, or a refusal (a Problem) decided by the ledger. */
export type Settled<R> = { value: R } | { problem: Problem };

/**
 * Applies queued operations, in the order given, in the open transaction, and settles each. Contract:
 * a refusal is that operation's answer (the others go on); a thrown error fails the transaction, which
 * is abandoned, and each operation then runs again alone.
 */
export type BatchRunner<Op, R> = (tx: PipelinedTransaction, ops: Op[]) => Promise<Settled<R>[]>;

export interface PlayerBatcher<Op, R> {
  /** Queues `op` of the player; settles after the commit of the transaction that applied it. */
  run(playerKey: string, op: Op): Promise<R>;
}

export interface BatcherOptions<Op, R> {
  /** Most operations in one transaction (1: every operation commits alone). */
  maxBatch: number;
  /** Transactions running at once, each on its own connection (default 4). */
  batchesInFlight?: number;
  runBatch: BatchRunner<Op, R>;
}

interface Job<Op> {
  playerKey: string;
  op: Op;
  resolve: (value: unknown) => void;
  reject: (err: unknown) => void;
}

/** Unique violation: a concurrent request (another replica) claimed the same row (a key, a balance) first. */
const ROW_TAKEN = '23505';
const ROW_TAKEN_RETRIES = 2;

/**
 * Queues the writes of every player and combines what is queued into transactions of up to `maxBatch`
 * operations, so one commit (one WAL flush), a constant number of statements (see `runBatch`) and no
 * lock fight serve many requests of many players, a hot player's among them. A player is in at most
 * one running transaction at a time and its operations are applied in the order they arrived, so
 * transactions running together touch disjoint balances and never wait on each other for them.
 *
 * No savepoints: a refusal wrote nothing and the others go on; any other failure abandons the whole
 * transaction and each of its operations runs again alone, in order, in a transaction of its own
 * (which retries serialization failures and deadlocks, and a row claimed meanwhile by another replica,
 * which then replays). Each caller gets its answer after its commit.
 */
export function createPlayerBatcher<Op, R>(pool: Pool, options: BatcherOptions<Op, R>): PlayerBatcher<Op, R> {
  const queue: Job<Op>[] = [];
  const busyPlayers = new Set<string>();
  const batchesInFlight = options.batchesInFlight ?? 4;
  const { runBatch: apply } = options;
  let running = 0;

  /** Queued jobs of players not in a running transaction, in arrival order, at most maxBatch. */
  function takeBatch(): Job<Op>[] {
    const batch: Job<Op>[] = [];
    const mine = new Set<string>();
    for (let i = 0; i < queue.length && batch.length < options.maxBatch; ) {
      const job = queue[i]!;
      if (busyPlayers.has(job.playerKey) && !mine.has(job.playerKey)) {
        i++;
        continue;
      }
      mine.add(job.playerKey);
      busyPlayers.add(job.playerKey);
      batch.push(job);
      queue.splice(i, 1);
    }
    return batch;
  }

  function pump(): void {
    while (running < batchesInFlight && queue.length > 0) {
      const batch = takeBatch();
      if (batch.length === 0) return;
      running++;
      void runBatch(batch).finally(() => {
        for (const job of batch) busyPlayers.delete(job.playerKey);
        running--;
        pump();
      });
    }
  }

  async function runBatch(batch: Job<Op>[]): Promise<void> {
    if (batch.length === 1) return runAlone(batch[0]!);
    let results: Settled<R>[];
    try {
      // Not retried as a whole: a batch that fails before COMMIT runs again operation by operation.
      results = await withPipelinedTransaction(
        pool,
        (tx) =>
          apply(
            tx,
            batch.map((job) => job.op),
          ),
        { retries: 0 },
      );
    } catch (err) {
      if (err instanceof CommitOutcomeUnknown) {
        // It may have committed: running the operations again could apply them twice. Each caller gets
        // an error; a retry with its idempotency key then replays or applies it once.
        for (const job of batch) job.reject(err.cause);
        return;
      }
      // Nothing of the batch committed: every operation runs again on its own, in order.
      for (const job of batch) await runAlone(job);
      return;
    }
    for (const [i, job] of batch.entries()) settle(job, results[i]);
  }

  async function runAlone(job: Job<Op>): Promise<void> {
    try {
      const [result] = await retry(() => withPipelinedTransaction(pool, (tx) => apply(tx, [job.op])), {
        attempts: ROW_TAKEN_RETRIES + 1,
        delayMs: () => 0,
        retryable: (err) => (err as { code?: string }).code === ROW_TAKEN,
      });
      settle(job, result);
    } catch (err) {
      job.reject(err);
    }
  }

  return {
    run(playerKey: string, op: Op): Promise<R> {
      return new Promise<R>((resolve, reject) => {
        queue.push({ playerKey, op, resolve: resolve as (value: unknown) => void, reject });
        pump();
      });
    },
  };
}

function settle<Op, R>(job: Job<Op>, result: Settled<R> | undefined): void {
  if (!result) job.reject(new Error('the batch runner settled fewer operations than it was given'));
  else if ('value' in result) job.resolve(result.value);
  else job.reject(result.problem);
}
