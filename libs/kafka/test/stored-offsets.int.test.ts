import { type Pool, withTransaction } from '@engage/postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lockAndAdvanceOffsets, type OffsetKeys, storedOffsets } from '../src/stored-offsets.ts';
import { migratedPool } from './migrated-pool.ts';

const SCHEMA = 'kafka_lib_stored_offsets_test';

describe('storedOffsets', () => {
  let pool: Pool;

  beforeAll(async () => {
    pool = await migratedPool(SCHEMA, 2);
  });

  afterAll(async () => {
    await pool?.end();
  });

  const stored = async (keys: OffsetKeys) =>
    withTransaction(pool, (client, started) => storedOffsets(client, keys, started), {
      startWith: lockAndAdvanceOffsets(keys),
    });

  const rows = async (groupId: string) => {
    const { rows } = await pool.query<{ partition: number; next_offset: string }>(
      'SELECT partition, next_offset::text FROM kafka_offsets WHERE group_id = $1 ORDER BY partition',
      [groupId],
    );
    return rows.map((row) => [row.partition, row.next_offset]);
  };

  it('answers the offsets before the move when a transaction also meets a partition for the first time', async () => {
    const groupId = `group-${crypto.randomUUID()}`;
    const topic = 'topic';
    expect(await stored({ groupId, topic, next: new Map([[0, 5n]]) })).toEqual(new Map([[0, 0n]]));

    // Partition 0 has a stored offset, partitions 1 and 2 none yet: every partition answers the offset
    // its records are filtered by (0's records from 5 on must be applied, not taken for applied ones).
    const read = await stored({
      groupId,
      topic,
      next: new Map([
        [0, 12n],
        [1, 3n],
        [2, 7n],
      ]),
    });
    expect(read).toEqual(
      new Map([
        [0, 5n],
        [1, 0n],
        [2, 0n],
      ]),
    );
    expect(await rows(groupId)).toEqual([
      [0, '12'],
      [1, '3'],
      [2, '7'],
    ]);
  });

  it('never moves a stored offset back', async () => {
    const groupId = `group-${crypto.randomUUID()}`;
    const topic = 'topic';
    await stored({ groupId, topic, next: new Map([[0, 9n]]) });
    expect(await stored({ groupId, topic, next: new Map([[0, 4n]]) })).toEqual(new Map([[0, 9n]]));
    expect(await rows(groupId)).toEqual([[0, '9']]);
  });
});
