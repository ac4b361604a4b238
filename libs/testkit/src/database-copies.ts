import { randomBytes } from 'node:crypto';
import pg from 'pg';

/**
 * Test databases copied from one migrated template: `CREATE DATABASE … TEMPLATE` copies the files,
 * far faster than migrating an empty database again. Postgres copies a database only while no one
 * is connected to it, so the template is closed to connections once migrated.
 */

export interface PrivateDatabase {
  /** The database's URL, on the template's server. */
  readonly url: string;
  /** Drops it (connections still open are closed). */
  drop(): Promise<void>;
}

/** Between the template's name and a copy's: what `dropCopiesOf` knows a copy by. */
const COPY_MARK = '__copy_';

/** A new database with the template's schemas and rows, under a name of its own. */
export async function copyDatabase(templateDatabaseUrl: string): Promise<PrivateDatabase> {
  const template = new URL(templateDatabaseUrl);
  const templateName = databaseName(template);
  const name = `${templateName}${COPY_MARK}${randomBytes(5).toString('hex')}`;
  await onServer(template, (admin) =>
    admin.query(`CREATE DATABASE ${quoted(name)} TEMPLATE ${quoted(templateName)}`),
  );
  const url = new URL(template);
  url.pathname = `/${encodeURIComponent(name)}`;
  return {
    url: url.toString(),
    drop: async () => {
      await onServer(template, (admin) =>
        admin.query(`DROP DATABASE IF EXISTS ${quoted(name)} WITH (FORCE)`),
      );
    },
  };
}

/** Drops the copies of a template that earlier runs left behind (a worker that crashed, say). */
export async function dropCopiesOf(templateDatabaseUrl: string): Promise<void> {
  const template = new URL(templateDatabaseUrl);
  const prefix = `${databaseName(template)}${COPY_MARK}`;
  await onServer(template, async (admin) => {
    const { rows } = await admin.query<{ datname: string }>('SELECT datname FROM pg_database');
    for (const { datname } of rows.filter((row) => row.datname.startsWith(prefix)))
      await admin.query(`DROP DATABASE IF EXISTS ${quoted(datname)} WITH (FORCE)`);
  });
}

/** Refuses every new connection to the template: one left open would make the next copy fail. */
export async function closeToConnections(templateDatabaseUrl: string): Promise<void> {
  const template = new URL(templateDatabaseUrl);
  await onServer(template, (admin) =>
    admin.query(`ALTER DATABASE ${quoted(databaseName(template))} WITH ALLOW_CONNECTIONS false`),
  );
}

function databaseName(url: URL): string {
  return decodeURIComponent(url.pathname.slice(1));
}

async function onServer<T>(databaseUrl: URL, use: (admin: pg.Client) => Promise<T>): Promise<T> {
  const admin = new URL(databaseUrl);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end();
  }
}

function quoted(identifier: string): string {
  return `"${identifier.replaceAll('"', '""')}"`;
}
