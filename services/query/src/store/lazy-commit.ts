import { type Pool, withTransaction } from '@engage/postgres';

/**
 * Runs one statement whose loss in a crash is harmless (clearing a "mirror pending" flag: a lost
 * clear only makes the sweeper mirror the row again) without waiting for the WAL flush: the mirror
 * path then costs no fsync per chunk.
 */
export async function queryWithoutFlushWait(pool: Pool, text: string, values: unknown[]): Promise<void> {
  await withTransaction(pool, async (client) => {
    await client.query('SET LOCAL synchronous_commit = off');
    await client.query(text, values);
  });
}
