import { randomUUID } from 'node:crypto';
import type { Socket } from 'node:net';
import { eventually, stackConfig } from '@engage/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPool, type PoolClient } from '../src/pool.ts';
import { CommitOutcomeUnknown, withPipelinedTransaction, withTransaction } from '../src/transaction.ts';

describe.each([false, true])(
  'withTransaction with statements sent with BEGIN (pool pipelining: %s)',
  (pipeline) => {
    const pool = createPool({ url: stackConfig().databaseUrl, schema: 'public', max: 2, pipeline });
    beforeAll(async () => {
      await pool.query('CREATE TABLE IF NOT EXISTS transaction_start_test (id text PRIMARY KEY)');
    });
    afterAll(async () => {
      await pool.end();
    });
    const insert = (id: string) => ({ text: 'INSERT INTO transaction_start_test VALUES ($1)', values: [id] });

    it('hands their results to the work in order, values passed as parameters', async () => {
      const id = `it's \\ "${randomUUID()}"; SELECT 1`;
      const results = await withTransaction(pool, async (_client, started) => started, {
        startWith: [
          insert(id),
          {
            text: 'SELECT id, $2::int + 1 AS answer FROM transaction_start_test WHERE id = $1',
            values: [id, 41],
          },
        ],
      });
      expect(results.map((r) => r.rowCount)).toEqual([1, 1]);
      expect(results[1]!.rows).toEqual([{ id, answer: 42 }]);
    });

    it('writes them with BEGIN before Postgres answers anything, and the client waits again after', async () => {
      let writtenAtFirstAnswer: number | undefined;
      const watch = (client: PoolClient) => {
        const stream = client.connection.stream as Socket;
        stream.once('data', () => {
          writtenAtFirstAnswer = stream.bytesWritten;
        });
      };
      pool.once('acquire', watch);
      const seen = await withTransaction(
        pool,
        async (client) => ({
          written: (client.connection.stream as Socket).bytesWritten,
          pipelining: client.pipeline,
          txid: (await client.query<{ txid: string }>('SELECT txid_current()::text AS txid')).rows[0]!.txid,
        }),
        { startWith: [insert(randomUUID()), { text: 'SELECT txid_current()::text AS txid' }] },
      );
      expect(writtenAtFirstAnswer).toBe(seen.written);
      expect(seen.pipelining).toBe(pipeline);
    });

    it('runs them in the transaction of the work', async () => {
      const [started, inWork] = await withTransaction(
        pool,
        async (client, results) => [
          results[0]!.rows[0].txid,
          (await client.query('SELECT txid_current()::text AS txid')).rows[0].txid,
        ],
        { startWith: [{ text: 'SELECT txid_current()::text AS txid' }] },
      );
      expect(started).toBe(inWork);
    });

    it('rolls their effects back with the work', async () => {
      const id = randomUUID();
      await expect(
        withTransaction(
          pool,
          async () => {
            throw new Error('the work failed');
          },
          { startWith: [insert(id)] },
        ),
      ).rejects.toThrow('the work failed');
      const { rows } = await pool.query('SELECT 1 FROM transaction_start_test WHERE id = $1', [id]);
      expect(rows).toEqual([]);
    });

    it('throws the first failing one, runs no work and leaves the client usable', async () => {
      const id = randomUUID();
      let worked = false;
      await expect(
        withTransaction(
          pool,
          async () => {
            worked = true;
          },
          { startWith: [insert(id), { text: 'SELECT 1 / $1::int', values: [0] }, insert(randomUUID())] },
        ),
      ).rejects.toThrow('division by zero');
      expect(worked).toBe(false);
      expect((await pool.query('SELECT 1 FROM transaction_start_test WHERE id = $1', [id])).rows).toEqual([]);
      const clients = await Promise.all([pool.connect(), pool.connect()]);
      for (const client of clients) {
        expect(client.pipeline).toBe(pipeline);
        expect((await client.query('SELECT 2 AS two')).rows).toEqual([{ two: 2 }]);
        client.release();
      }
    });
  },
);

describe.each([true, false])('withPipelinedTransaction (pool pipelining: %s)', (pipeline) => {
  const pool = createPool({ url: stackConfig().databaseUrl, schema: 'public', max: 2, pipeline });
  const admin = createPool({ url: stackConfig().databaseUrl, schema: 'public', max: 1 });
  beforeAll(async () => {
    await pool.query('CREATE TABLE IF NOT EXISTS transaction_start_test (id text PRIMARY KEY)');
  });
  afterAll(async () => {
    await pool.end();
    await admin.end();
  });
  const insert = (id: string) => ({ text: 'INSERT INTO transaction_start_test VALUES ($1)', values: [id] });
  const stored = async (id: string) =>
    (await admin.query('SELECT 1 FROM transaction_start_test WHERE id = $1', [id])).rowCount;

  it('runs the first statement, those after it and the one sent with COMMIT in one transaction', async () => {
    const id = randomUUID();
    const txids = await withPipelinedTransaction(pool, async (tx) => {
      const txid = { text: 'SELECT txid_current()::text AS txid' };
      const first = await tx.query<{ txid: string }>(txid);
      await tx.query(insert(id));
      // Not visible to others before the COMMIT.
      expect(await stored(id)).toBe(0);
      const last = await tx.commitWith<{ txid: string }>(txid);
      return [first.rows[0]!.txid, last.rows[0]!.txid];
    });
    expect(new Set(txids).size).toBe(1);
    expect(await stored(id)).toBe(1);
  });

  it('commits work that ends without commitWith', async () => {
    const id = randomUUID();
    await withPipelinedTransaction(pool, async (tx) => {
      await tx.query(insert(id));
    });
    expect(await stored(id)).toBe(1);
  });

  it('rolls everything back when the statement sent with COMMIT fails, and throws its error', async () => {
    const id = randomUUID();
    await expect(
      withPipelinedTransaction(pool, async (tx) => {
        await tx.query(insert(id));
        await tx.commitWith({ text: 'SELECT 1 / 0' });
      }),
    ).rejects.toMatchObject({ code: '22012' });
    expect(await stored(id)).toBe(0);
    // The connection went back to the pool usable, outside any transaction.
    expect((await pool.query<{ one: number }>('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
  });

  it('reports a connection lost during the statement sent with COMMIT as CommitOutcomeUnknown', async () => {
    const id = randomUUID();
    await expect(
      withPipelinedTransaction(pool, async (tx) => {
        const { rows } = await tx.query<{ pid: number }>({ text: 'SELECT pg_backend_pid() AS pid' });
        await tx.query(insert(id));
        const last = tx.commitWith({ text: 'SELECT pg_sleep(10)' });
        // Awaited below; the termination can reject it before then, which is no unhandled rejection.
        last.catch(() => {});
        await eventually('the statement to run', async () => {
          const { rows: running } = await admin.query(
            `SELECT 1 FROM pg_stat_activity WHERE pid = $1 AND query LIKE '%pg_sleep%'`,
            [rows[0]!.pid],
          );
          return running.length > 0 ? true : undefined;
        });
        await admin.query('SELECT pg_terminate_backend($1)', [rows[0]!.pid]);
        await last;
      }),
    ).rejects.toBeInstanceOf(CommitOutcomeUnknown);
    expect(await stored(id)).toBe(0);
    expect((await pool.query<{ one: number }>('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
  });

  it('retries the whole work after a deadlock', async () => {
    let attempts = 0;
    const result = await withPipelinedTransaction(
      pool,
      async (tx) => {
        attempts++;
        if (attempts === 1)
          await tx.query({ text: `DO $$ BEGIN RAISE EXCEPTION 'injected' USING ERRCODE = '40P01'; END $$` });
        return (await tx.commitWith<{ n: number }>({ text: 'SELECT $1::int AS n', values: [attempts] }))
          .rows[0]!.n;
      },
      { retries: 1 },
    );
    expect(result).toBe(2);
  });
});
