import { describe, expect, it } from 'vitest';
import { chainDigest, EMPTY_DIGEST, foldActivity } from '../src/domain/activity.ts';

const player = { environmentId: '7d3b8a39-0000-4000-8000-000000000001', playerId: 'p1' };
const event = (n: number, occurredAt = `2026-01-01T00:00:0${n}.000Z`) => ({
  eventId: `00000000-0000-4000-8000-00000000000${n}`,
  offset: String(100 + n),
  occurredAt,
});

describe('foldActivity', () => {
  it('starts a player seen for the first time from nothing', () => {
    const state = foldActivity(player, undefined, [event(1), event(2)]);
    expect(state).toEqual({
      ...player,
      eventsApplied: 2,
      lastEventId: event(2).eventId,
      lastOffset: '102',
      lastOccurredAt: event(2).occurredAt,
      appliedEventsDigest: chainDigest(chainDigest(EMPTY_DIGEST, event(1).eventId), event(2).eventId),
    });
  });

  it('continues from the stored state, as if all events had come in one batch', () => {
    const once = foldActivity(player, undefined, [event(1), event(2), event(3)]);
    const split = foldActivity(player, foldActivity(player, undefined, [event(1)]), [event(2), event(3)]);
    expect(split).toEqual(once);
  });

  it('gives a different digest when the same events are applied in another order', () => {
    const inOrder = foldActivity(player, undefined, [event(1), event(2)]);
    const swapped = foldActivity(player, undefined, [event(2), event(1)]);
    expect(swapped?.eventsApplied).toBe(2);
    expect(swapped?.appliedEventsDigest).not.toBe(inOrder?.appliedEventsDigest);
  });

  it('keeps the latest occurrence time when a caller stamps an older event later', () => {
    const state = foldActivity(player, undefined, [
      event(1, '2026-01-02T00:00:00.000Z'),
      event(2, '2026-01-01T00:00:00.000Z'),
    ]);
    expect(state?.lastEventId).toBe(event(2).eventId);
    expect(state?.lastOccurredAt).toBe('2026-01-02T00:00:00.000Z');
  });

  it('leaves the state alone when there is nothing to apply', () => {
    expect(foldActivity(player, undefined, [])).toBeUndefined();
    const stored = foldActivity(player, undefined, [event(1)]);
    expect(foldActivity(player, stored, [])).toBeUndefined();
  });
});
