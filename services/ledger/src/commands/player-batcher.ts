import { Problem } from '@engage/kit';
import type { Pool, PoolClient } from '@engage/postgres';
import { withTransaction } from '@engage/postgres';

/** One request's work on one player, written with the transaction it is given. */
export type Step<T> = (client: PoolClient) => Promise<T>;

export interface PlayerBatcher {
  /** Runs `step` in a transaction shared with the player's other queued steps; settles after the commit. */
  run<T>(playerKey: string, step: Step<T>): Promise<T>;
}

interface Job {
  step: Step<unknown>;
  resolve: (value: unknown) => void;
  reject: (err: unknown) => void;
}

type Result = { job: Job; value: unknown } | { job: Job; problem: Problem } | { job: Job; alone: true };

/**
 * Queues the writes of each player and combines those that arrived while the previous commit ran
 * into one transaction (up to `maxBatch`), so a hot player costs one commit and no lock fight per
 * batch instead of one per request. Each step runs under its own savepoint: a refusal (a thrown
 * Problem) undoes only that step, and each caller still gets its own answer, after the commit. A step
 * failing any other way (a deadlock with another player's batch, a broken statement), or a batch
 * that cannot commit, runs again alone in a transaction of its own, which retries serialization
 * failures as every transaction does. `maxBatch` 1 turns combining off.
 */
export function createPlayerBatcher(pool: Pool, options: { maxBatch: number }): PlayerBatcher {
  const queues = new Map<string, Job[]>();

  const runAlone = (job: Job) => withTransaction(pool, job.step).then(job.resolve, job.reject);

  async function runBatch(batch: Job[]): Promise<void> {
    if (batch.length === 1) return runAlone(batch[0]!);
    let results: Result[];
    try {
      results = await runCombined(pool, batch);
    } catch {
      // Nothing of the batch committed: every step runs again on its own.
      await Promise.all(batch.map(runAlone));
      return;
    }
    await Promise.all(
      results.map((result) => {
        if ('value' in result) return result.job.resolve(result.value);
        if ('problem' in result) return result.job.reject(result.problem);
        return runAlone(result.job);
      }),
    );
  }

  async function drain(playerKey: string): Promise<void> {
    const queue = queues.get(playerKey)!;
    while (queue.length > 0) await runBatch(queue.splice(0, options.maxBatch));
    queues.delete(playerKey);
  }

  return {
    run<T>(playerKey: string, step: Step<T>): Promise<T> {
      return new Promise<T>((resolve, reject) => {
        const job: Job = { step, resolve: resolve as (value: unknown) => void, reject };
        const queue = queues.get(playerKey);
        if (queue) {
          queue.push(job);
          return;
        }
        queues.set(playerKey, [job]);
        void drain(playerKey);
      });
    },
  };
}

async function runCombined(pool: Pool, batch: Job[]): Promise<Result[]> {
  const client = await pool.connect();
  let broken = false;
  try {
    await client.query('BEGIN ISOLATION LEVEL READ COMMITTED');
    const results: Result[] = [];
    for (const job of batch) {
      await client.query('SAVEPOINT step');
      try {
        const value = await job.step(client);
        await client.query('RELEASE SAVEPOINT step');
        results.push({ job, value });
      } catch (err) {
        await client.query('ROLLBACK TO SAVEPOINT step');
        results.push(err instanceof Problem ? { job, problem: err } : { job, alone: true });
      }
    }
    await client.query('COMMIT');
    return results;
  } catch (err) {
    broken = await client.query('ROLLBACK').then(
      () => false,
      () => true,
    );
    throw err;
  } finally {
    client.release(broken);
  }
}
