import { randomUUID } from 'node:crypto';
import { stackConfig } from '@engage/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPool } from '../src/pool.ts';
import { execute, queryConfig, sqlBuilder } from '../src/sql.ts';
import { withTransaction } from '../src/transaction.ts';

interface Tables {
  sql_builder_test: { id: string; label: string; amount: number };
}

const db = sqlBuilder<Tables>();

describe('sqlBuilder', () => {
  const pool = createPool({ url: stackConfig().databaseUrl, schema: 'public', max: 2 });
  beforeAll(async () => {
    await pool.query(
      'CREATE TABLE IF NOT EXISTS sql_builder_test (id text PRIMARY KEY, label text NOT NULL, amount int NOT NULL)',
    );
  });
  afterAll(async () => {
    await pool.end();
  });

  it('writes placeholders for named columns, values passed apart from the text', () => {
    const config = queryConfig(
      db.insertInto('sql_builder_test').values({ id: 'a', label: `it's "quoted"`, amount: 3 }),
      'insert-test',
    );
    expect(config).toEqual({
      text: 'insert into "sql_builder_test" ("id", "label", "amount") values ($1, $2, $3)',
      values: ['a', `it's "quoted"`, 3],
      name: 'insert-test',
    });
  });

  it('runs on a transaction client and returns typed rows', async () => {
    const id = randomUUID();
    const rows = await withTransaction(pool, async (client) => {
      await execute(
        client,
        db.insertInto('sql_builder_test').values({ id, label: 'it\'s \\ "odd"', amount: 41 }),
      );
      return execute(
        client,
        db
          .updateTable('sql_builder_test')
          .set((eb) => ({ amount: eb('amount', '+', 1) }))
          .where('id', '=', id)
          .returning(['label', 'amount']),
      );
    });
    expect(rows).toEqual([{ label: 'it\'s \\ "odd"', amount: 42 }]);
  });
});
