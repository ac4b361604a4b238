import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stackConfig } from '@engage/testkit';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from '../src/migrate.ts';

describe('migrate', () => {
  const schema = `migrate_test_${crypto.randomUUID().slice(0, 8)}`;
  const client = new pg.Client({ connectionString: stackConfig().databaseUrl });
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'engage-migrate-test-'));
    await writeFile(
      join(dir, '0001_things.sql'),
      '-- Up Migration\nCREATE TABLE things (id int PRIMARY KEY);\n\n-- Down Migration\nDROP TABLE things;\n',
    );
  });

  afterAll(async () => {
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await client.end();
  });

  it('lets replicas starting together migrate at once: each waits for the one migrating, none fails', async () => {
    const { databaseUrl } = stackConfig();
    const outcomes = await Promise.allSettled(
      Array.from({ length: 4 }, () => migrate({ databaseUrl, schema, dir })),
    );
    expect(outcomes.map((o) => (o.status === 'rejected' ? String(o.reason) : o.status))).toEqual(
      Array(4).fill('fulfilled'),
    );
    await client.connect();
    const { rows } = await client.query<{ table_name: string }>(
      'SELECT table_name FROM information_schema.tables WHERE table_schema = $1 ORDER BY 1',
      [schema],
    );
    expect(rows.map((r) => r.table_name)).toEqual(
      expect.arrayContaining(['consumed_records', 'kafka_offsets', 'things']),
    );
  });
});
