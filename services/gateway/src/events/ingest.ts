import { randomUUID } from 'node:crypto';
import { type AcceptedEvent, type EnvironmentContext, topics } from '@engage/contracts';
import type { EventBatchResult } from '@engage/contracts/http/events.ts';
import { produceRecords } from '@engage/kafka';
import { problem } from '@engage/kit';
import { type Pool, TransactionRetriesExhausted, withTransaction } from '@engage/postgres';
import type { Producer } from 'kafkajs';
import { checkEventItems, type ValidEvent } from '../domain/event-items.ts';
import { saveDiscovered } from '../store/event-definitions.ts';
import { upsertPlayers } from '../store/players.ts';
import type { EventRulesCache } from './rules-cache.ts';

export interface IngestDeps {
  pool: Pool;
  producer: Producer;
  topicPrefix: string;
  rules: EventRulesCache;
}

/**
 * Checks a batch item by item, creates the players of the accepted items and stores what discovery
 * defined (one transaction), then produces every accepted event in one send. The answer is built
 * only after the broker acknowledged, so an accepted eventId is always on the topic.
 */
export async function ingestEvents(
  deps: IngestDeps,
  environment: EnvironmentContext,
  items: readonly unknown[],
): Promise<EventBatchResult> {
  const receivedAt = new Date();
  const rules = await deps.rules.get(environment.environmentId);
  const { outcomes, discovered } = checkEventItems(items, rules, receivedAt);
  const valid = outcomes.flatMap((o) => (o.ok ? [o.event] : []));

  const players = await storePlayersAndDefinitions(deps, environment.environmentId, valid, discovered);
  if (discovered.size > 0) deps.rules.invalidate(environment.environmentId);

  const eventIds = new Map<number, string>();
  const records: AcceptedEvent[] = [];
  for (const outcome of outcomes) {
    if (!outcome.ok) continue;
    const eventId = randomUUID();
    eventIds.set(outcome.index, eventId);
    records.push(
      toRecord(eventId, environment, outcome.event, receivedAt, players.get(outcome.event.playerId)),
    );
  }
  await produceRecords(deps.producer, topics.eventsAccepted, deps.topicPrefix, records);

  return {
    accepted: records.length,
    rejected: outcomes.length - records.length,
    results: outcomes.map((o) =>
      o.ok
        ? { index: o.index, accepted: true, eventId: eventIds.get(o.index)!, errors: [] }
        : { index: o.index, accepted: false, eventId: null, errors: o.errors },
    ),
  };
}

async function storePlayersAndDefinitions(
  deps: IngestDeps,
  environmentId: string,
  events: ValidEvent[],
  discovered: Parameters<typeof saveDiscovered>[2],
) {
  if (events.length === 0) return new Map<string, { timeZone: string | null }>();
  try {
    return await withTransaction(deps.pool, async (client) => {
      await saveDiscovered(client, environmentId, discovered);
      return upsertPlayers(
        client,
        environmentId,
        events.map((e) => ({ externalId: e.playerId, timeZone: e.timeZone })),
      );
    });
  } catch (err) {
    if (err instanceof TransactionRetriesExhausted) {
      throw problem(
        409,
        'event_batch.concurrent_update',
        'Other requests were creating the same players at the same instant; nothing was written. Send the batch again.',
      );
    }
    throw err;
  }
}

function toRecord(
  eventId: string,
  environment: EnvironmentContext,
  event: ValidEvent,
  receivedAt: Date,
  player: { timeZone: string | null } | undefined,
): AcceptedEvent {
  return {
    eventId,
    organizationId: environment.organizationId,
    environmentId: environment.environmentId,
    environmentKind: environment.environmentKind,
    playerId: event.playerId,
    eventKey: event.eventKey,
    occurredAt: event.occurredAt,
    receivedAt: receivedAt.toISOString(),
    timeZone: event.timeZone ?? player?.timeZone ?? null,
    properties: event.properties,
    idempotencyKey: event.idempotencyKey,
  };
}
