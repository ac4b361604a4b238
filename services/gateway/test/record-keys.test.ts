import { type AcceptedEvent, topics } from '@engage/contracts';
import { describe, expect, it } from 'vitest';
import { rememberedRecordKeys } from '../src/events/record-keys.ts';

const event = (environmentId: string, playerId: string) => ({ environmentId, playerId }) as AcceptedEvent;

describe('remembered record keys', () => {
  it("gives the catalog's key of every player of every environment, remembered or not", () => {
    const keyOf = rememberedRecordKeys(3);
    const seen = [
      event('env-a', 'p1'),
      event('env-b', 'p1'),
      event('env-a', 'p2'),
      event('env-a', 'p1'),
      event('env-a', 'p:3'),
      event('env-b', 'p1'),
      event('env-c', 'p1'),
      event('env-a', 'p2'),
    ];
    for (const record of seen) expect(keyOf(record)).toBe(topics.eventsAccepted.keyOf(record));
  });
});
