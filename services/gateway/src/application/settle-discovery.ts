import {
  type BatchCheck,
  checkEventItems,
  type EventRule,
  type EventRules,
  type ItemOutcome,
} from '../domain/event-items.ts';
import type { ControlPlane } from '../upstreams/control-plane.ts';
import type { EdgeViews } from './edge-views/edge-views.ts';

/** A batch checked against the definitions this replica holds. */
export interface CheckedBatch {
  items: readonly unknown[];
  rules: EventRules;
  receivedAt: Date;
  check: BatchCheck;
}

/**
 * With discovery on, reports what the batch defined to the control plane, then checks the batch
 * again against the definitions as stored, until it defines nothing new. Another request (on any
 * replica) may have defined the same event or property first with another JSON type: its type
 * holds, so items of the type this batch saw first are refused (event.property_type_mismatch) and
 * items of the stored type are accepted. Each round stores at least one property not stored
 * before, so the rounds end; if the control plane defined nothing asked (discovery was turned
 * off), the batch is checked once more without discovery.
 */
export async function settleDiscovery(
  deps: { controlPlane: ControlPlane; views: EdgeViews },
  environmentId: string,
  batch: CheckedBatch,
): Promise<ItemOutcome[]> {
  const { items, receivedAt } = batch;
  const events = new Map(batch.rules.events);
  let { discovery } = batch.rules;
  let { check } = batch;
  while (check.discovered.size > 0) {
    const asked = [...check.discovered.values()];
    const stored = await deps.controlPlane.recordDiscoveries(environmentId, asked);
    deps.views.learn(environmentId, stored);
    for (const rule of stored) events.set(rule.key, rule);
    if (!asked.every((rule) => definedAsAsked(rule, events.get(rule.key)))) discovery = false;
    check = checkEventItems(items, { discovery, events }, receivedAt);
  }
  return check.outcomes;
}

/** Whether every property asked for is stored (with whichever type was stored first). */
const definedAsAsked = (asked: EventRule, stored: EventRule | undefined) =>
  stored !== undefined && Object.keys(asked.properties).every((name) => name in stored.properties);
