import { randomUUID } from 'node:crypto';
import { withTransaction } from '@engage/postgres';
import { randomEnvironment, schemaPool } from '@engage/testkit';
import { afterAll, describe, expect, it } from 'vitest';
import type { EventTally } from '../src/domain/tally.ts';
import { addTallies, findPlayerTotals } from '../src/store/totals.ts';

// The stored totals are added to chunk by chunk: each property's sum stays exact across chunks,
// whichever properties each chunk carries.
const pool = schemaPool('query');
afterAll(() => pool.end());

const tally = (
  environmentId: string,
  playerId: string,
  eventKey: string,
  count: number,
  sums: Record<string, string>,
): EventTally => ({ environmentId, playerId, eventKey, count, lastEventId: randomUUID(), sums });

const add = (tallies: EventTally[]) => withTransaction(pool, (client) => addTallies(client, tallies));

describe('player event totals', () => {
  it('adds each chunk to the stored sums exactly, property by property', async () => {
    const { environmentId } = randomEnvironment();
    await add([
      tally(environmentId, 'ann', 'purchase', 2, { amount: '0.1', gems: '99999999999999999999.5' }),
      tally(environmentId, 'ann', 'login', 1, {}),
    ]);
    await add([
      tally(environmentId, 'ann', 'purchase', 1, { amount: '0.2', coins: '-3' }),
      tally(environmentId, 'ann', 'login', 4, {}),
      tally(environmentId, 'bob', 'purchase', 1, { amount: '5' }),
    ]);
    await add([tally(environmentId, 'ann', 'purchase', 1, { gems: '0.5' })]);

    expect(await findPlayerTotals(pool, environmentId, 'ann')).toEqual([
      { eventKey: 'login', count: 5, sums: {} },
      {
        eventKey: 'purchase',
        count: 4,
        sums: { amount: '0.3', coins: '-3', gems: '100000000000000000000' },
      },
    ]);
    expect(await findPlayerTotals(pool, environmentId, 'bob')).toEqual([
      { eventKey: 'purchase', count: 1, sums: { amount: '5' } },
    ]);
  });
});
