import { topics } from '@engage/contracts';
import { acceptedEvent, numberProperty } from '@engage/testkit/events.ts';
import { describe, expect, it } from 'vitest';

// Scores are summed from number properties on the events topic: they must cross Avro exactly.
describe('number properties on the events topic', () => {
  it.each(['30', '21.47483648', '-30', '99999999999999999999.99999999', '0', '0.00000001'])(
    'keep %s',
    (number) => {
      const env = {
        organizationId: crypto.randomUUID(),
        environmentId: crypto.randomUUID(),
        environmentKind: 'Sandbox' as const,
      };
      const event = acceptedEvent(env, 'p', { properties: { points: numberProperty(number) } });
      const type = topics.eventsAccepted.type;
      expect(type.fromBuffer(type.toBuffer(event)).properties.points.number).toBe(number);
    },
  );
});
