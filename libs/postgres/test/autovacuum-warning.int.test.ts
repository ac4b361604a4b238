import { stackConfig } from '@engage/testkit';
import { afterAll, expect, it } from 'vitest';
import { createPool, warnIfAutovacuumOff } from '../src/pool.ts';

const pool = createPool({ url: stackConfig().databaseUrl, schema: 'public', max: 1 });
afterAll(() => pool.end());

it('warns exactly when the server runs without autovacuum', async () => {
  const { rows } = await pool.query<{ autovacuum: string }>('SHOW autovacuum');
  const warnings: object[] = [];
  const warned = await warnIfAutovacuumOff(pool, { warn: (details) => warnings.push(details) });
  expect(warned).toBe(rows[0]!.autovacuum === 'off');
  expect(warnings).toEqual(warned ? [{ autovacuum: 'off' }] : []);
});

it('leaves a server it cannot ask to the readiness probe', async () => {
  const unreachable = createPool({ url: 'postgres://postgres@127.0.0.1:1/none', schema: 'public', max: 1 });
  const warnings: object[] = [];
  try {
    expect(await warnIfAutovacuumOff(unreachable, { warn: (details) => warnings.push(details) })).toBe(false);
    expect(warnings).toEqual([]);
  } finally {
    await unreachable.end();
  }
});
