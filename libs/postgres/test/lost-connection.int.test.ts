import { eventually, stackConfig } from '@engage/testkit';
import { afterAll, describe, expect, it } from 'vitest';
import { createPool } from '../src/pool.ts';

/**
 * A backend terminated while its client is checked out (pg_terminate_backend, a failover) fails
 * that client's work only: no uncaught exception takes the process down, the loss is reported,
 * and the pool goes on serving with new connections.
 */
describe('a connection lost while checked out', () => {
  const reported: unknown[] = [];
  const pool = createPool({
    url: stackConfig().databaseUrl,
    schema: 'public',
    max: 2,
    log: { warn: (details) => reported.push(details) },
  });
  const admin = createPool({ url: stackConfig().databaseUrl, schema: 'public', max: 1 });
  afterAll(async () => {
    await pool.end();
    await admin.end();
  });

  it('fails the holder’s transaction, is reported, and the pool serves on', async () => {
    const client = await pool.connect();
    await client.query('BEGIN');
    const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
    await admin.query('SELECT pg_terminate_backend($1)', [rows[0]!.pid]);
    // The server's FATAL reaches the idle client as an error event: without the pool's listener,
    // an uncaught exception here.
    await eventually('the loss to be reported', async () => (reported.length > 0 ? true : undefined));

    await expect(client.query('SELECT 1')).rejects.toThrow();
    client.release(true);
    expect((await pool.query<{ one: number }>('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
  });
});
