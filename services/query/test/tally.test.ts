import { numberProperty, stringProperty } from '@engage/testkit/events.ts';
import { describe, expect, it } from 'vitest';
import { tallyEvents } from '../src/domain/tally.ts';

const environmentId = '2b1e9f0c-0000-4000-8000-000000000001';
let next = 0;
const event = (playerId: string, eventKey: string, properties = {}) => ({
  eventId: `00000000-0000-4000-8000-${String(++next).padStart(12, '0')}`,
  environmentId,
  playerId,
  eventKey,
  properties,
});

describe('tallyEvents', () => {
  it('counts per player and event key and remembers the last event of each', () => {
    const a1 = event('a', 'win');
    const b1 = event('b', 'win');
    const a2 = event('a', 'win');
    const a3 = event('a', 'login');
    expect(tallyEvents([a1, b1, a2, a3])).toEqual([
      { environmentId, playerId: 'a', eventKey: 'win', count: 2, lastEventId: a2.eventId, sums: {} },
      { environmentId, playerId: 'b', eventKey: 'win', count: 1, lastEventId: b1.eventId, sums: {} },
      { environmentId, playerId: 'a', eventKey: 'login', count: 1, lastEventId: a3.eventId, sums: {} },
    ]);
  });

  it('sums numeric properties exactly, beyond what a double can hold', () => {
    const [tally] = tallyEvents([
      event('a', 'purchase', {
        amount: numberProperty('99999999999999999999.99999999'),
        note: stringProperty('x'),
      }),
      event('a', 'purchase', { amount: numberProperty('0.00000001') }),
      event('a', 'purchase', { amount: numberProperty('-0.5'), gems: numberProperty('3') }),
    ]);
    expect(tally?.sums).toEqual({ amount: '99999999999999999999.5', gems: '3' });
  });

  it('keeps environments apart even for the same player id', () => {
    const other = { ...event('a', 'win'), environmentId: '2b1e9f0c-0000-4000-8000-000000000002' };
    expect(tallyEvents([event('a', 'win'), other]).map((t) => t.count)).toEqual([1, 1]);
  });

  it('adds nothing for an empty batch', () => {
    expect(tallyEvents([])).toEqual([]);
  });
});
