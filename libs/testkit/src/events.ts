import type { AcceptedEvent, EnvironmentContext, PropertyValue } from '@engage/contracts';
import { topics } from '@engage/contracts';
import { connectProducer, createKafka, type Producer, produceRecords } from '@engage/kafka';
import { createLogger } from '@engage/kit';
import { stackConfig } from './stack.ts';

/** An accepted event as the gateway would produce it, for tests that feed consumers directly. */
export function acceptedEvent(
  env: EnvironmentContext,
  playerId: string,
  options: { eventKey?: string; properties?: Record<string, PropertyValue>; occurredAt?: string } = {},
): AcceptedEvent {
  const now = new Date().toISOString();
  return {
    eventId: crypto.randomUUID(),
    organizationId: env.organizationId,
    environmentId: env.environmentId,
    environmentKind: env.environmentKind,
    playerId,
    eventKey: options.eventKey ?? 'level_completed',
    occurredAt: options.occurredAt ?? now,
    receivedAt: now,
    timeZone: null,
    properties: options.properties ?? {},
    idempotencyKey: null,
  };
}

export const numberProperty = (value: string): PropertyValue => ({
  type: 'Number',
  string: null,
  number: value,
  boolean: null,
  dateTime: null,
});

export const stringProperty = (value: string): PropertyValue => ({
  type: 'String',
  string: value,
  number: null,
  boolean: null,
  dateTime: null,
});

/** Produces accepted events to the events topic of a test's topic prefix, in the order given. */
export interface EventsProducer {
  send(events: AcceptedEvent[]): Promise<void>;
  close(): Promise<void>;
}

export async function connectEventsProducer(topicPrefix: string): Promise<EventsProducer> {
  const kafka = createKafka({
    brokers: stackConfig().brokers,
    clientId: 'test-producer',
    log: createLogger('test-producer', 'warn'),
  });
  const producer: Producer = await connectProducer(kafka);
  return {
    send: async (events) => {
      await produceRecords(producer, topics.eventsAccepted, topicPrefix, events);
    },
    close: () => producer.disconnect(),
  };
}

/** Polls `probe` until it returns a value other than undefined; fails with `what` after the timeout. */
export async function eventually<T>(
  what: string,
  probe: () => Promise<T | undefined>,
  options: { timeoutMs?: number; intervalMs?: number } = {},
): Promise<T> {
  const deadline = Date.now() + (options.timeoutMs ?? 30_000);
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, options.intervalMs ?? 100));
  }
}
