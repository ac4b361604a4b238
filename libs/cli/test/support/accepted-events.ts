import { type AcceptedEvent, type TopicDefinition, topicName, topics } from '@engage/contracts';
import { connectProducer, createKafka, encodeRecord, ensureTopics, schemaHeaders } from '@engage/kafka';
import { createLogger } from '@engage/kit';
import { stackConfig } from '@engage/testkit';

/** An accepted event of a player with one number property, `level`, as the gateway writes it. */
export function acceptedEvent(
  tenant: { organizationId: string; environmentId: string },
  playerId: string,
  level: string,
  at: Date,
): AcceptedEvent {
  return {
    eventId: crypto.randomUUID(),
    organizationId: tenant.organizationId,
    environmentId: tenant.environmentId,
    environmentKind: 'Sandbox',
    playerId,
    eventKey: 'level_completed',
    occurredAt: at.toISOString(),
    receivedAt: at.toISOString(),
    timeZone: null,
    properties: { level: { type: 'Number', string: null, number: level, boolean: null, dateTime: null } },
    idempotencyKey: null,
  };
}

/**
 * Writes the events to `<prefix>events.accepted.v1` as the gateway does (plain Avro, the
 * engage-schema header), all on partition 0 in order, each stamped with its time `at`.
 */
export async function writeAcceptedEvents(
  prefix: string,
  records: readonly { at: Date; value: AcceptedEvent }[],
): Promise<void> {
  const kafka = createKafka({
    brokers: stackConfig().brokers,
    clientId: 'accepted-events-writer',
    log: createLogger('accepted-events-writer', 'error'),
  });
  await ensureTopics(kafka, prefix, [topics.eventsAccepted as TopicDefinition<unknown>]);
  const producer = await connectProducer(kafka);
  try {
    for (const { at, value } of records) {
      await producer.send({
        topic: topicName(topics.eventsAccepted, prefix),
        messages: [
          {
            partition: 0,
            key: topics.eventsAccepted.keyOf(value),
            value: encodeRecord(topics.eventsAccepted, value),
            headers: schemaHeaders(topics.eventsAccepted),
            timestamp: String(at.getTime()),
          },
        ],
      });
    }
  } finally {
    await producer.disconnect();
  }
}
