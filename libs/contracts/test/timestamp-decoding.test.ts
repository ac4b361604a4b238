import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { topics } from '../src/topics/catalog.ts';
import { acceptedEventWith } from './accepted-event.ts';

const type = topics.eventsAccepted.type;

const event = (occurredAt: string, receivedAt: string) => acceptedEventWith({ occurredAt, receivedAt });

describe('timestamp-millis read back (the last value read is remembered)', () => {
  it('gives each record its own times, repeated or not, in any order', () => {
    const time = fc.integer({ min: 0, max: 4_102_444_800_000 }).map((ms) => new Date(ms).toISOString());
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.constantFrom(0, 1, 2), fc.constantFrom(0, 1, 2)), { minLength: 1 }),
        fc.tuple(time, time, time),
        (picks, times) => {
          for (const [occurred, received] of picks) {
            const written = event(times[occurred]!, times[received]!);
            expect(type.fromBuffer(type.toBuffer(written))).toEqual(written);
          }
        },
      ),
    );
  });
});
