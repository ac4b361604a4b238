import { fileURLToPath } from 'node:url';
import { runner } from 'node-pg-migrate';
import pg from 'pg';
import { quoteIdent } from './pool.ts';

/** Tables every service needs (consumer offsets, outbox), migrated into each service's schema. */
export const KIT_MIGRATIONS_DIR = fileURLToPath(new URL('../migrations', import.meta.url));

export interface MigrateOptions {
  databaseUrl: string;
  schema: string;
  /** The service's own SQL migrations. */
  dir: string;
  log?: (line: string) => void;
}

/**
 * Brings one service's schema up to date: creates the database and schema when missing, applies the
 * shared kit migrations, then the service's own. Safe to run concurrently (advisory lock) and again.
 */
export async function migrate(options: MigrateOptions): Promise<void> {
  await ensureDatabase(options.databaseUrl);
  const log = options.log ?? (() => {});
  const client = new pg.Client({ connectionString: options.databaseUrl });
  await client.connect();
  try {
    await createSchemaIfMissing(client, options.schema);
    for (const [dir, table] of [
      [KIT_MIGRATIONS_DIR, 'kit_migrations'],
      [options.dir, 'migrations'],
    ] as const) {
      await runner({
        dbClient: client,
        dir,
        migrationsTable: table,
        schema: options.schema,
        migrationsSchema: options.schema,
        direction: 'up',
        checkOrder: true,
        singleTransaction: true,
        // Replicas starting together: each waits for the one migrating, then finds nothing to do.
        advisoryLockMode: 'wait',
        log,
        verbose: false,
      });
    }
  } finally {
    await client.end();
  }
}

/** IF NOT EXISTS alone still fails when another session creates the same schema meanwhile. */
function createSchemaIfMissing(client: pg.Client, schema: string): Promise<unknown> {
  return client.query(`CREATE SCHEMA IF NOT EXISTS ${quoteIdent(schema)}`).catch(ignoreCreatedMeanwhile);
}

/** Postgres's answers to a CREATE that another session's CREATE of the same name overtook. */
function ignoreCreatedMeanwhile(err: { code?: string }): void {
  const DUPLICATE_DATABASE = '42P04';
  const DUPLICATE_SCHEMA = '42P06';
  const UNIQUE_VIOLATION = '23505';
  if (![DUPLICATE_DATABASE, DUPLICATE_SCHEMA, UNIQUE_VIOLATION].includes(err.code ?? '')) throw err;
}

/** Creates the database named in the URL when it does not exist (local development and tests). */
export async function ensureDatabase(databaseUrl: string): Promise<void> {
  const url = new URL(databaseUrl);
  const name = decodeURIComponent(url.pathname.slice(1));
  const admin = new URL(databaseUrl);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (found.rowCount === 0) {
      await client.query(`CREATE DATABASE "${name.replaceAll('"', '""')}"`).catch(ignoreCreatedMeanwhile);
    }
  } finally {
    await client.end();
  }
}

/**
 * Drops the database named in the URL (and its connections) and creates it empty. For test
 * databases only: each test run starts from nothing, whatever an earlier run left behind.
 */
export async function recreateDatabase(databaseUrl: string): Promise<void> {
  const name = decodeURIComponent(new URL(databaseUrl).pathname.slice(1));
  const admin = new URL(databaseUrl);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS "${name.replaceAll('"', '""')}" WITH (FORCE)`);
  } finally {
    await client.end();
  }
  await ensureDatabase(databaseUrl);
}
