import { randomBytes } from 'node:crypto';
import { migrateAll } from '@engage/devstack';
import { recreateDatabase } from '@engage/postgres';
import pg from 'pg';
import { stackConfig } from './stack.ts';

export interface PrivateDatabase {
  /** The database's URL, on the suite's server. */
  readonly url: string;
  /** Drops it (connections still open are closed). */
  drop(): Promise<void>;
}

/**
 * A database of one test's own beside the suite's, migrated like it: for a stack on a broker of
 * its own. Every outbox relay publishes whatever its schema's outbox holds, so in the suite's
 * shared database another stack's relay would take this stack's rows and fail to publish them to
 * a broker that has none of its topics (and this stack's relay theirs), stalling both.
 */
export async function createPrivateDatabase(): Promise<PrivateDatabase> {
  const url = new URL(stackConfig().databaseUrl);
  url.pathname = `${url.pathname}_${randomBytes(4).toString('hex')}`;
  const databaseUrl = url.toString();
  await recreateDatabase(databaseUrl);
  await migrateAll(stackConfig().repoRoot, databaseUrl);
  return {
    url: databaseUrl,
    drop: async () => {
      const admin = new URL(databaseUrl);
      admin.pathname = '/postgres';
      const client = new pg.Client({ connectionString: admin.toString() });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS "${url.pathname.slice(1)}" WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}
