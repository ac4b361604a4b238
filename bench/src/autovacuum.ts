import { setTimeout as sleep } from 'node:timers/promises';
import { createPool, type Pool } from '@engage/postgres';

/**
 * Deployed Postgres servers run autovacuum; the development server runs without it. There, what a
 * run changes is never analyzed or vacuumed while it runs: a plan cached while a table looked empty
 * stays (the ledger's batch write scans `balances` through a hash join planned on three rows), and
 * the outbox's dead rows pile up between relays. Where autovacuum is off, the bench does its work
 * from a connection of its own, by autovacuum's default thresholds: a table is analyzed once 50 rows
 * plus a tenth of it changed, vacuumed once 50 rows plus a fifth of it are dead. It looks every 5 s
 * where autovacuum looks once a minute, so that runs of a few seconds measure the state a server
 * reaches within its first minutes.
 */
export async function keepTablesVacuumed(
  databaseUrl: string,
  log: (line: string) => void,
): Promise<{ stop(): Promise<void> }> {
  const pool = createPool({
    url: databaseUrl,
    schema: 'public',
    max: 1,
    applicationName: 'bench-autovacuum',
  });
  const { rows } = await pool.query<{ autovacuum: string }>('SHOW autovacuum');
  if (rows[0]?.autovacuum === 'on') {
    await pool.end();
    return { stop: async () => {} };
  }
  log('the Postgres server runs without autovacuum: the bench analyzes and vacuums by its thresholds');
  const stopping = new AbortController();
  const loop = (async () => {
    while (!stopping.signal.aborted) {
      await sleep(5_000, undefined, { signal: stopping.signal }).catch(() => {});
      if (stopping.signal.aborted) break;
      await maintainDueTables(pool, log).catch((err: Error) => log(`autovacuum pass failed: ${err.message}`));
    }
  })();
  return {
    stop: async () => {
      stopping.abort();
      await loop;
      await pool.end();
    },
  };
}

async function maintainDueTables(pool: Pool, log: (line: string) => void): Promise<void> {
  const { rows } = await pool.query<{ name: string; vacuum: boolean }>(
    `SELECT format('%I.%I', s.schemaname, s.relname) AS name,
            s.n_dead_tup > 50 + 0.2 * greatest(c.reltuples, 0) AS vacuum
     FROM pg_stat_user_tables s JOIN pg_class c ON c.oid = s.relid
     WHERE s.n_dead_tup > 50 + 0.2 * greatest(c.reltuples, 0)
        OR s.n_mod_since_analyze > 50 + 0.1 * greatest(c.reltuples, 0)`,
  );
  for (const table of rows) {
    // A workload may drop its own table meanwhile.
    await pool
      .query(`${table.vacuum ? 'VACUUM (ANALYZE)' : 'ANALYZE'} ${table.name}`)
      .catch((err: Error) => log(`could not maintain ${table.name}: ${err.message}`));
  }
}
