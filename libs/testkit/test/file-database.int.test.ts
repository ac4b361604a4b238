import pg from 'pg';
import { describe, expect, inject, it } from 'vitest';
import { stackConfig } from '../src/stack.ts';

// The database test/setup/file-database.ts gives this file: a migrated copy of the template, while
// the template itself takes no connections.
describe("a test file's database", () => {
  it('is a migrated copy of the template, apart from it', async () => {
    const { databaseUrl } = stackConfig();
    const template = inject('stack').templateDatabaseUrl;
    expect(new URL(databaseUrl).pathname).not.toBe(new URL(template).pathname);
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      const { rows } = await client.query<{ name: string }>(
        "SELECT nspname AS name FROM pg_namespace WHERE nspname IN ('gateway', 'rules', 'ledger', 'query') ORDER BY 1",
      );
      expect(rows.map((row) => row.name)).toEqual(['gateway', 'ledger', 'query', 'rules']);
    } finally {
      await client.end();
    }
  });

  it('leaves the template closed to connections, so copying it never fails', async () => {
    const client = new pg.Client({ connectionString: inject('stack').templateDatabaseUrl });
    await expect(client.connect()).rejects.toThrow(/not currently accepting connections/);
  });
});
