import { fileURLToPath } from 'node:url';
import { createPool, migrate, type Pool } from '@engage/postgres';
import { stackConfig } from '@engage/testkit';

/** A pool on its own schema of the test database, with kafka_offsets and the tests' own tables. */
export async function migratedPool(schema: string, max: number, pipeline = false): Promise<Pool> {
  const { databaseUrl } = stackConfig();
  await migrate({ databaseUrl, schema, dir: fileURLToPath(new URL('./migrations', import.meta.url)) });
  return createPool({ url: databaseUrl, schema, max, pipeline });
}
