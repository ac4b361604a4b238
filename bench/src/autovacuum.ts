import { setTimeout as sleep } from 'node:timers/promises';
import { createPool, type Pool, runsWithoutAutovacuum } from '@engage/postgres';

/**
 * Vacuums the whole database before a run, then, where the server runs without autovacuum, keeps
 * doing its work during the run. The development server runs without it: the dead rows earlier runs
 * left (outbox and offset rows, replaced scores: over a million in the ledger's outbox after a day of
 * runs) made each run slower than the one before, and what a run changes is never analyzed, so a plan
 * cached while a table looked empty stays (the ledger's batch write scans `balances` through a hash
 * join planned on three rows). During the run, from a connection of the bench's own and by
 * autovacuum's default thresholds, a table is analyzed once 50 rows plus a tenth of it changed and
 * vacuumed once 50 rows plus a fifth of it are dead. It looks every 5 s where autovacuum looks once a
 * minute, so that runs of a few seconds measure the state a server reaches within its first minutes.
 */
export interface TableMaintenance {
  /**
   * Stops analyzing and vacuuming until `resume` (for rows measured on tables as they are before any
   * ANALYZE); resolves once a pass under way has finished.
   */
  pause(): Promise<void>;
  /** Vacuums and analyzes the whole database, then goes on keeping it so. */
  resume(): Promise<void>;
  stop(): Promise<void>;
}

export async function keepTablesVacuumed(
  databaseUrl: string,
  log: (line: string) => void,
): Promise<TableMaintenance> {
  const pool = createPool({
    url: databaseUrl,
    schema: 'public',
    max: 1,
    applicationName: 'bench-autovacuum',
  });
  let off: boolean;
  try {
    await pool.query('VACUUM (ANALYZE)');
    off = await runsWithoutAutovacuum(pool);
  } catch (err) {
    await pool.end();
    throw err;
  }
  if (off)
    log('the Postgres server runs without autovacuum: the bench analyzes and vacuums by its thresholds');
  let paused = false;
  let pass = Promise.resolve();
  const stopping = new AbortController();
  const loop = (async () => {
    while (off && !stopping.signal.aborted) {
      await sleep(5_000, undefined, { signal: stopping.signal }).catch(() => {});
      if (stopping.signal.aborted) break;
      if (paused) continue;
      pass = maintainDueTables(pool, log).catch((err: Error) =>
        log(`autovacuum pass failed: ${err.message}`),
      );
      await pass;
    }
  })();
  return {
    pause: async () => {
      paused = true;
      await pass;
    },
    resume: async () => {
      await pool.query('VACUUM (ANALYZE)');
      paused = false;
    },
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
