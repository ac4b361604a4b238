import type { ConsumedRecord } from '@engage/kafka';
import type { PoolClient } from '@engage/postgres';
import { dataFor, type WebhookChange } from './domain/changes.ts';
import { endpointsOfEnvironments, insertDeliveries, type NewDelivery } from './store.ts';

/**
 * Turns consumed records into deliveries, in the consumer's transaction (so they exist exactly when
 * the records' offsets moved): one per endpoint, active or paused, of the record's environment that
 * subscribes to the change's type and existed when the record was written. Answers how many.
 */
export async function enqueueDeliveries<T>(
  client: PoolClient,
  records: ConsumedRecord<T>[],
  changesOf: (value: T) => WebhookChange[],
): Promise<number> {
  const changes = records.flatMap((record) =>
    changesOf(record.value).map((change) => ({ change, madeAt: new Date(Number(record.timestamp)) })),
  );
  if (changes.length === 0) return 0;
  const environments = [...new Set(changes.map(({ change }) => change.environmentId))];
  const endpoints = Map.groupBy(
    await endpointsOfEnvironments(client, environments),
    (endpoint) => endpoint.environmentId,
  );
  if (endpoints.size === 0) return 0;
  const deliveries: NewDelivery[] = [];
  for (const { change, madeAt } of changes) {
    for (const endpoint of endpoints.get(change.environmentId) ?? []) {
      const data = dataFor(change, endpoint, madeAt);
      if (!data) continue;
      deliveries.push({
        webhookId: endpoint.webhookId,
        eventType: change.eventType,
        playerId: change.playerId,
        sourceId: change.sourceId,
        payload: {
          type: change.eventType,
          timestamp: change.occurredAt,
          environmentId: change.environmentId,
          data,
        },
      });
    }
  }
  return insertDeliveries(client, deliveries);
}
