import { Problem } from '@engage/kit';
import type { Pool, PoolClient } from '@engage/postgres';
import { withTransaction } from '@engage/postgres';
import { insertOutboxRows, type OutboxRow } from '../store/outbox-rows.ts';

/** The transaction a step writes with, and where it leaves the records to publish on commit. */
export interface WriteTransaction {
  client: PoolClient;
  /** Adds an outbox row; all rows of a transaction are written in one statement just before COMMIT. */
  publish: (row: OutboxRow) => void;
}

/**
 * One request's work on one player. Contract: it either completes, or throws a Problem having written
 * nothing (a refusal answered as is), or fails otherwise (the transaction is abandoned and the step
 * runs again alone).
 */
export type Step<T> = (tx: WriteTransaction) => Promise<T>;

export interface PlayerBatcher {
  /** Runs `step` in a transaction shared with other queued steps; settles after the commit. */
  run<T>(playerKey: string, step: Step<T>): Promise<T>;
}

export interface BatcherOptions {
  /** Most steps in one transaction (1: every step commits alone). */
  maxBatch: number;
  /** Transactions running at once, each on its own connection (default 4). */
  batchesInFlight?: number;
}

interface Job {
  playerKey: string;
  step: Step<unknown>;
  resolve: (value: unknown) => void;
  reject: (err: unknown) => void;
}

type Result = { job: Job; value: unknown } | { job: Job; problem: Problem };

/** Unique violation: a concurrent request (another replica) claimed the same idempotency key first. */
const KEY_TAKEN = '23505';
const KEY_TAKEN_RETRIES = 2;

/**
 * Queues the writes of every player and combines what is queued into transactions of up to `maxBatch`
 * steps, so one commit (one WAL flush) and no lock fight serve many requests of many players, a hot
 * player's among them. A player is in at most one running transaction at a time and its steps run in
 * the order they arrived, so transactions running together touch disjoint balances and never wait on
 * each other for them.
 *
 * Steps take no savepoints: a refusal (a thrown Problem) wrote nothing and the others go on; any other
 * failure abandons the whole transaction and each of its steps runs again alone, in order, in a
 * transaction of its own (which retries serialization failures and deadlocks, and a key claimed
 * meanwhile by another replica, which then replays). Each caller gets its answer after its commit.
 */
export function createPlayerBatcher(pool: Pool, options: BatcherOptions): PlayerBatcher {
  const queue: Job[] = [];
  const busyPlayers = new Set<string>();
  const batchesInFlight = options.batchesInFlight ?? 4;
  let running = 0;

  /** Queued jobs of players not in a running transaction, in arrival order, at most maxBatch. */
  function takeBatch(): Job[] {
    const batch: Job[] = [];
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

  async function runBatch(batch: Job[]): Promise<void> {
    if (batch.length === 1) return runAlone(batch[0]!);
    let results: Result[];
    try {
      results = await runCombined(pool, batch);
    } catch (err) {
      if (err instanceof CommitOutcomeUnknown) {
        // It may have committed: running the steps again could apply them twice. Each caller gets an
        // error; a retry with its idempotency key then replays or applies it once.
        for (const job of batch) job.reject(err.cause);
        return;
      }
      // Nothing of the batch committed: every step runs again on its own, in order.
      for (const job of batch) await runAlone(job);
      return;
    }
    for (const result of results) {
      if ('value' in result) result.job.resolve(result.value);
      else result.job.reject(result.problem);
    }
  }

  async function runAlone(job: Job): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      try {
        const [result] = await withTransaction(pool, (client) => runSteps(client, [job]));
        if (result && 'value' in result) job.resolve(result.value);
        else job.reject(result?.problem);
        return;
      } catch (err) {
        if ((err as { code?: string }).code === KEY_TAKEN && attempt < KEY_TAKEN_RETRIES) continue;
        job.reject(err);
        return;
      }
    }
  }

  return {
    run<T>(playerKey: string, step: Step<T>): Promise<T> {
      return new Promise<T>((resolve, reject) => {
        queue.push({ playerKey, step, resolve: resolve as (value: unknown) => void, reject });
        pump();
      });
    },
  };
}

/** The connection failed while COMMIT was under way: whether the transaction committed is unknown. */
class CommitOutcomeUnknown extends Error {
  override name = 'CommitOutcomeUnknown';
}

async function runCombined(pool: Pool, batch: Job[]): Promise<Result[]> {
  const client = await pool.connect();
  let broken = false;
  try {
    await client.query('BEGIN ISOLATION LEVEL READ COMMITTED');
    const results = await runSteps(client, batch);
    await client.query('COMMIT').catch((err: unknown) => {
      // An ERROR answer means the transaction rolled back; anything else (a FATAL answer, a lost
      // connection) leaves the outcome unknown.
      if ((err as { severity?: string }).severity === 'ERROR') throw err;
      broken = true;
      throw new CommitOutcomeUnknown('the connection failed during COMMIT', { cause: err });
    });
    return results;
  } catch (err) {
    if (!broken) {
      broken = await client.query('ROLLBACK').then(
        () => false,
        () => true,
      );
    }
    throw err;
  } finally {
    client.release(broken);
  }
}

/**
 * Runs the steps in order in the open transaction, then writes the outbox rows of the steps that
 * completed. A Problem is that step's answer; any other error fails the transaction.
 */
async function runSteps(client: PoolClient, jobs: Job[]): Promise<Result[]> {
  const rows: OutboxRow[] = [];
  const tx: WriteTransaction = { client, publish: (row) => rows.push(row) };
  const results: Result[] = [];
  for (const job of jobs) {
    try {
      results.push({ job, value: await job.step(tx) });
    } catch (err) {
      if (!(err instanceof Problem)) throw err;
      results.push({ job, problem: err });
    }
  }
  await insertOutboxRows(client, rows);
  return results;
}
