import { inject } from 'vitest';
import { copyDatabase, type PrivateDatabase } from './database-copies.ts';
import './provided.ts';

export type { PrivateDatabase } from './database-copies.ts';

/**
 * A migrated database of its own, copied from the template the integration global setup migrated.
 * Each test file runs on one (test/setup/file-database.ts); a test asks for another when it needs
 * one apart from its file's (tables it fills and forgets the statistics of, say).
 */
export function createPrivateDatabase(): Promise<PrivateDatabase> {
  return copyDatabase(inject('stack').templateDatabaseUrl);
}
