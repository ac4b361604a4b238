import { randomUUID } from 'node:crypto';
import { stackConfig } from '@engage/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPool } from '../src/pool.ts';
import { sqlLiteral, withTransaction } from '../src/transaction.ts';

describe('withTransaction with statements sent with BEGIN', () => {
  const pool = createPool({ url: stackConfig().databaseUrl, schema: 'public', max: 2 });
  beforeAll(async () => {
    await pool.query('CREATE TABLE IF NOT EXISTS transaction_start_test (id text PRIMARY KEY)');
  });
  afterAll(async () => {
    await pool.end();
  });

  it('hands their results to the work in order, values written as literals', async () => {
    const id = `it's ${randomUUID()}`;
    const results = await withTransaction(pool, async (_client, started) => started, {
      startWith: `INSERT INTO transaction_start_test VALUES (${sqlLiteral(id)});
        SELECT id, ${sqlLiteral(41)} + 1 AS answer FROM transaction_start_test WHERE id = ${sqlLiteral(id)}`,
    });
    expect(results.map((r) => r.rowCount)).toEqual([1, 1]);
    expect(results[1]!.rows).toEqual([{ id, answer: 42 }]);
  });

  it('rolls their effects back with the work', async () => {
    const id = randomUUID();
    await expect(
      withTransaction(
        pool,
        async () => {
          throw new Error('the work failed');
        },
        { startWith: `INSERT INTO transaction_start_test VALUES (${sqlLiteral(id)})` },
      ),
    ).rejects.toThrow('the work failed');
    const { rows } = await pool.query('SELECT 1 FROM transaction_start_test WHERE id = $1', [id]);
    expect(rows).toEqual([]);
  });
});
