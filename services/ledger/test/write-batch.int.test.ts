import { randomUUID } from 'node:crypto';
import { createPool, type Pool, withPipelinedTransaction } from '@engage/postgres';
import { stackConfig, uniqueTopicPrefix } from '@engage/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyWrites } from '../src/application/write-queue.ts';
import { effectOutboxRows } from '../src/domain/outbox-rows.ts';
import { decideBatch, rowKey } from '../src/domain/write-decisions.ts';
import { writeBatchEffects } from '../src/store/write-batch.ts';
import { adjustmentOp } from './support/adjustment-op.ts';
import { expectLedgerInvariants, journalOf, storedBalance } from './support/invariants.ts';

let pool: Pool;
const topicPrefix = uniqueTopicPrefix();
beforeAll(() => {
  pool = createPool({ url: stackConfig().databaseUrl, schema: 'ledger', max: 2, pipeline: true });
});
afterAll(async () => {
  // Nothing publishes this test's records (no relay has its prefix): its own rows go with it.
  await pool.query('DELETE FROM outbox WHERE topic LIKE $1', [`${topicPrefix}%`]);
  await pool.end();
});

describe('a write batch sent with its COMMIT', () => {
  it('rolls back, before its COMMIT, when a balance is not the value the batch read', async () => {
    const environmentId = randomUUID();
    const [opened] = await withPipelinedTransaction(pool, (tx) =>
      applyWrites(tx, [adjustmentOp(environmentId, 'p', 10, 'opening')], topicPrefix),
    );
    expect(opened).toMatchObject({ value: { outcome: { status: 200 } } });

    // Decided from a balance of 3 while the row holds 10 (what a lost lock would look like).
    const stale = adjustmentOp(environmentId, 'p', 5, 'stale');
    const { effects } = decideBatch([stale], {
      keys: new Map(),
      balances: new Map([[rowKey(environmentId, 'p'), 3]]),
      items: new Map(),
      purchased: new Map(),
      sold: new Map(),
    });
    await expect(
      withPipelinedTransaction(pool, (tx) =>
        writeBatchEffects(tx, effects, effectOutboxRows(effects, topicPrefix)),
      ),
    ).rejects.toThrow(/changed after the batch read/);

    expect(await storedBalance(pool, environmentId, 'p')).toBe(10);
    expect((await journalOf(pool, environmentId)).map((e) => e.idempotencyKey)).toEqual(['opening']);
    const { rows: keys } = await pool.query('SELECT key FROM idempotency_keys WHERE environment_id = $1', [
      environmentId,
    ]);
    expect(keys).toEqual([{ key: 'opening' }]);
    await expectLedgerInvariants(pool, environmentId);
  });
});
