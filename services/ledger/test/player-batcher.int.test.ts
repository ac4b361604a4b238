import { Problem, problem } from '@engage/kit';
import { createPool, type PipelinedTransaction, type Pool } from '@engage/postgres';
import { stackConfig } from '@engage/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BatcherOptions, createPlayerBatcher, type Settled } from '../src/application/player-batcher.ts';

let pool: Pool;
beforeAll(() => {
  pool = createPool({ url: stackConfig().databaseUrl, schema: 'ledger', max: 6, pipeline: true });
});
afterAll(() => pool.end());

/** The queue is generic over what it applies: here each operation is a step run in the batch's transaction. */
type Step<T> = (tx: PipelinedTransaction) => Promise<T>;

/** Runs a batch's steps one after another in its transaction; a thrown Problem is that step's answer. */
async function runSteps(tx: PipelinedTransaction, steps: Step<unknown>[]): Promise<Settled<unknown>[]> {
  const settled: Settled<unknown>[] = [];
  for (const step of steps) {
    try {
      settled.push({ value: await step(tx) });
    } catch (err) {
      if (!(err instanceof Problem)) throw err;
      settled.push({ problem: err });
    }
  }
  return settled;
}

const stepBatcher = (options: Omit<BatcherOptions<Step<unknown>, unknown>, 'runBatch'>) =>
  createPlayerBatcher(pool, { ...options, runBatch: runSteps });

const transactionOf: Step<string> = async (tx) =>
  (await tx.query<{ tx: string }>({ text: 'SELECT txid_current()::text AS tx' })).rows[0]!.tx;

describe('the write queue', () => {
  it('combines the steps of many players queued behind a running one into one transaction, each with its own answer', async () => {
    const batcher = stepBatcher({ maxBatch: 64, batchesInFlight: 1 });
    const first = batcher.run('env/p1', transactionOf);
    const queued = Array.from({ length: 10 }, (_, i) => batcher.run(`env/p${i % 3}`, transactionOf));
    const refused = batcher.run('env/p1', async () => {
      throw problem('points.insufficient_balance', 'refused');
    });
    const afterRefused = batcher.run('env/p4', transactionOf);

    const firstTx = await first;
    const combined = await Promise.all([...queued, afterRefused]);
    expect(new Set(combined).size).toBe(1);
    expect(combined[0]).not.toBe(firstTx);
    await expect(refused).rejects.toMatchObject({ status: 409 });
  });

  it('runs every step of a failed transaction again alone: the broken one fails, the others succeed', async () => {
    const batcher = stepBatcher({ maxBatch: 64, batchesInFlight: 1 });
    const first = batcher.run('env/p1', transactionOf);
    const before = batcher.run('env/p2', transactionOf);
    const broken = batcher.run('env/p3', async (tx) => tx.query({ text: 'SELECT 1 / 0' }));
    const after = Array.from({ length: 3 }, (_, i) => batcher.run(`env/p${4 + i}`, transactionOf));
    await first;
    await expect(broken).rejects.toMatchObject({ code: '22012' });
    const alone = await Promise.all([before, ...after]);
    expect(new Set(alone).size).toBe(alone.length);
  });

  it('keeps a player in one transaction at a time, its steps in arrival order', async () => {
    const batcher = stepBatcher({ maxBatch: 4, batchesInFlight: 4 });
    const running = new Map<string, number>();
    const order: Record<string, number[]> = {};
    const step =
      (player: string, n: number): Step<void> =>
      async (tx) => {
        running.set(player, (running.get(player) ?? 0) + 1);
        await tx.query({ text: 'SELECT pg_sleep(0.002)' });
        expect(running.get(player)).toBe(1);
        running.set(player, running.get(player)! - 1);
        order[player] = [...(order[player] ?? []), n];
      };
    await Promise.all(
      Array.from({ length: 60 }, (_, n) => batcher.run(`env/p${n % 3}`, step(`p${n % 3}`, n))),
    );
    for (const [player, seen] of Object.entries(order)) {
      expect(seen, player).toEqual([...seen].sort((a, b) => a - b));
    }
    expect(Object.values(order).flat()).toHaveLength(60);
  });

  it('commits one step per transaction when combining is off', async () => {
    const batcher = stepBatcher({ maxBatch: 1 });
    const txs = await Promise.all(Array.from({ length: 5 }, () => batcher.run('env/p1', transactionOf)));
    expect(new Set(txs).size).toBe(5);
  });
});
