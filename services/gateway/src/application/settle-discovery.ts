import type { PoolClient } from '@engage/postgres';
import {
  type BatchCheck,
  checkEventItems,
  type EventRules,
  type ItemOutcome,
} from '../domain/event-items.ts';
import { storeDiscovered } from '../store/event-definitions.ts';

/** A batch checked against the definitions this replica had loaded. */
export interface CheckedBatch {
  items: readonly unknown[];
  rules: EventRules;
  receivedAt: Date;
  check: BatchCheck;
}

/**
 * With discovery on, stores what the batch defined, then checks the batch again against the
 * definitions as stored, until it defines nothing new. Another request (on any replica) may have
 * defined the same event or property first with another JSON type: its type holds, so items of the
 * type this batch saw first are refused (event.property_type_mismatch) and items of the stored type
 * are accepted. Each round stores at least one property not stored before, so the rounds end.
 * Runs in the transaction that admits the items: the definitions stay locked until it commits.
 */
export async function settleDiscovery(
  client: PoolClient,
  environmentId: string,
  batch: CheckedBatch,
): Promise<ItemOutcome[]> {
  const { items, rules, receivedAt } = batch;
  const events = new Map(rules.events);
  let { check } = batch;
  while (check.discovered.size > 0) {
    for (const [key, rule] of await storeDiscovered(client, environmentId, check.discovered)) {
      events.set(key, rule);
    }
    check = checkEventItems(items, { ...rules, events }, receivedAt);
  }
  return check.outcomes;
}
