import { problem } from '@engage/kit';
import { createPool, type Pool } from '@engage/postgres';
import { stackConfig } from '@engage/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPlayerBatcher, type Step } from '../src/commands/player-batcher.ts';

let pool: Pool;
beforeAll(() => {
  pool = createPool({ url: stackConfig().databaseUrl, schema: 'ledger', max: 4 });
});
afterAll(() => pool.end());

const transactionOf: Step<string> = async (client) =>
  (await client.query<{ tx: string }>('SELECT txid_current()::text AS tx')).rows[0]!.tx;

describe('the per-player queue', () => {
  it('combines the steps queued behind a running one into one transaction, each with its own answer', async () => {
    const batcher = createPlayerBatcher(pool, { maxBatch: 64 });
    const first = batcher.run('env/p1', transactionOf);
    const queued = Array.from({ length: 10 }, () => batcher.run('env/p1', transactionOf));
    const refused = batcher.run('env/p1', async () => {
      throw problem(409, 'points.insufficient_balance', 'refused');
    });
    const broken = batcher.run('env/p1', async (client) => client.query('SELECT 1 / 0'));
    const afterBroken = batcher.run('env/p1', transactionOf);
    const otherPlayer = batcher.run('env/p2', transactionOf);

    const firstTx = await first;
    const combined = await Promise.all([...queued, afterBroken]);
    expect(new Set(combined).size).toBe(1);
    expect(combined[0]).not.toBe(firstTx);
    await expect(refused).rejects.toMatchObject({ status: 409 });
    // A step failing other than by a refusal runs again alone, and fails there for good.
    await expect(broken).rejects.toMatchObject({ code: '22012' });
    expect(await otherPlayer).not.toBe(combined[0]);
  });

  it('commits one step per transaction when combining is off', async () => {
    const batcher = createPlayerBatcher(pool, { maxBatch: 1 });
    const txs = await Promise.all(Array.from({ length: 5 }, () => batcher.run('env/p1', transactionOf)));
    expect(new Set(txs).size).toBe(5);
  });
});
