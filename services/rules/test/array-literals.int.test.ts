import { schemaPool } from '@engage/testkit';
import { afterAll, describe, expect, it } from 'vitest';
import { plainArray, textArray } from '../src/store/array-literals.ts';

const pool = schemaPool('rules');
afterAll(() => pool.end());

/** The elements Postgres reads from `literal` as an array of `type` (bigint read back as text). */
const unnest = async (literal: string, type: string) => {
  const cast = type === 'bigint' ? '::text' : '';
  const { rows } = await pool.query<{ v: unknown }>(`SELECT unnest($1::${type}[])${cast} AS v`, [literal]);
  return rows.map((row) => row.v);
};

describe('array literals read back by Postgres', () => {
  it('keep any text, quotes, backslashes, braces, commas, spaces and the word NULL included', async () => {
    const ids = ['player-1', 'a"b', 'back\\slash', '\\"', '{x,y}', ' spaced ', 'NULL', '', 'émoji 🎮'];
    expect(await unnest(textArray(ids), 'text')).toEqual(ids);
  });

  it('keep JSON arrays of numbers, uuids and numbers, and NULL', async () => {
    expect(await unnest(plainArray(['[1,2.5,null]', null, '[]']), 'json')).toEqual([
      [1, 2.5, null],
      null,
      [],
    ]);
    const id = crypto.randomUUID();
    expect(await unnest(plainArray([id, null]), 'uuid')).toEqual([id, null]);
    expect(await unnest(plainArray([0, 12, '9007199254740993']), 'bigint')).toEqual([
      '0',
      '12',
      '9007199254740993',
    ]);
    expect(await unnest(plainArray([]), 'text')).toEqual([]);
  });
});
