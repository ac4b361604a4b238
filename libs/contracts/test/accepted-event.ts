import type { AcceptedEvent } from '../src/topics/catalog.ts';

/** An accepted event with fixed ids and times, and what the test sets. */
export const acceptedEventWith = (fields: Partial<AcceptedEvent>): AcceptedEvent => ({
  eventId: '00000000-0000-4000-8000-000000000000',
  organizationId: '00000000-0000-4000-8000-000000000001',
  environmentId: '00000000-0000-4000-8000-000000000002',
  environmentKind: 'Live',
  playerId: 'p',
  eventKey: 'e',
  occurredAt: '2026-01-01T00:00:00.000Z',
  receivedAt: '2026-01-01T00:00:00.000Z',
  timeZone: null,
  properties: {},
  idempotencyKey: null,
  ...fields,
});
