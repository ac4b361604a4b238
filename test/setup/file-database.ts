// Each integration file runs on a database of its own, copied from the migrated template before the
// file loads and dropped after its last hook: no file sees another's rows. Every stack, pool and
// fixture of the file finds it through `stackConfig().databaseUrl`.
import { useFileDatabase } from '@engage/testkit/file-database.ts';
import { createPrivateDatabase } from '@engage/testkit/private-database.ts';
import { afterAll } from 'vitest';

const database = await createPrivateDatabase();
useFileDatabase(database.url);
// Registered before the file's own hooks, so it runs after them (hooks run as a stack): the file's
// services and pools are closed by then.
afterAll(() => database.drop());
