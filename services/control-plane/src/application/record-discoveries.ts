import { randomUUID } from 'node:crypto';
import { topics } from '@engage/contracts';
import type { ItemChange } from '@engage/contracts/environment-file.ts';
import type { EventRule } from '@engage/contracts/event-rules.ts';
import { enqueueOutbox } from '@engage/kafka';
import { type Pool, withTransaction } from '@engage/postgres';
import { eventDefinitionsRecord } from '../domain/edge-state-records.ts';
import { definitionAppliedRecord } from '../domain/state-records.ts';
import { nextDefinitionVersion } from '../store/control-plane.ts';
import {
  defineDiscovered,
  lockDiscoveringEnvironment,
  storedEventRules,
} from '../store/discovered-definitions.ts';
import { loadGatewaySections } from '../store/event-definitions.ts';
import type { StateOutbox } from './state-outbox.ts';

/**
 * Records what an edge discovered in an environment's traffic and answers those events as stored:
 * the edge checks its batch again against the answer, so of concurrent first occurrences with
 * different types (on any edge replica) only the type stored first is accepted. What this defined
 * is published on definitions.applied.v1 (Created for a new event, Updated for a new property) in
 * the same transaction, with the environment's event definitions after it. With discovery off
 * (turned off since the edge last heard), nothing is defined.
 * Undefined: no such environment.
 */
export async function recordDiscoveries(
  pool: Pool,
  outbox: StateOutbox,
  environmentId: string,
  discovered: readonly EventRule[],
): Promise<EventRule[] | undefined> {
  let published = false;
  const stored = await withTransaction(pool, async (client) => {
    const environment = await lockDiscoveringEnvironment(client, environmentId);
    if (!environment) return undefined;
    const outcome = await defineDiscovered(client, environmentId, environment.discovery ? discovered : []);
    const changes: ItemChange[] = [
      ...outcome.created.map(
        (key): ItemChange => ({ section: 'events', key, change: 'created', fields: [] }),
      ),
      ...outcome.extended.map(
        (key): ItemChange => ({ section: 'events', key, change: 'updated', fields: ['properties'] }),
      ),
    ];
    if (changes.length > 0) {
      const version = await nextDefinitionVersion(client, environmentId);
      const sections = await loadGatewaySections(client, environmentId);
      await enqueueOutbox(client, topics.definitionsApplied, outbox.topicPrefix, [
        definitionAppliedRecord({
          applyId: randomUUID(),
          organizationId: environment.organizationId,
          environmentId,
          environmentKind: environment.environmentKind,
          version,
          actor: 'discovery',
          changes,
          appliedAt: new Date(),
          events: eventDefinitionsRecord(sections!),
        }),
      ]);
      published = true;
    }
    return storedEventRules(
      client,
      environmentId,
      discovered.map((r) => r.key),
    );
  });
  if (published) outbox.kick();
  return stored;
}
