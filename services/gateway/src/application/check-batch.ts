import { checkEventItems, type ItemOutcome } from '../domain/event-items.ts';
import type { ControlPlane } from '../upstreams/control-plane.ts';
import type { EdgeViews } from './edge-views/edge-views.ts';
import { settleDiscovery } from './settle-discovery.ts';

/** How long a batch refused for its definitions waits for definitions still on their way. */
const CATCH_UP_TIMEOUT_MS = 1_000;

/** Refusals an apply committed a moment ago could lift. */
const DEFINITION_REFUSALS = new Set([
  'event.not_found',
  'event.inactive',
  'event.unknown_property',
  'event.property_type_mismatch',
  'event.required_property_missing',
  'event.property_value_out_of_range',
]);

/**
 * Checks each item of a batch against the environment's event definitions as this replica holds
 * them. A batch with items refused for their definitions is checked again once the replica has
 * read everything on the definitions' topic (an apply just answered may not have arrived yet);
 * what discovery defines is settled with the control plane (settleDiscovery).
 */
export async function checkBatch(
  deps: { controlPlane: ControlPlane; views: EdgeViews },
  environmentId: string,
  items: readonly unknown[],
  receivedAt: Date,
): Promise<ItemOutcome[]> {
  let rules = deps.views.eventRules(environmentId);
  let check = checkEventItems(items, rules, receivedAt);
  const refusedByDefinitions = check.outcomes.some(
    (o) => !o.ok && o.errors.some((e) => DEFINITION_REFUSALS.has(e.code)),
  );
  if (refusedByDefinitions && (await deps.views.catchUp(CATCH_UP_TIMEOUT_MS))) {
    const current = deps.views.eventRules(environmentId);
    if (current !== rules) {
      rules = current;
      check = checkEventItems(items, rules, receivedAt);
    }
  }
  if (check.discovered.size === 0) return check.outcomes;
  return settleDiscovery(deps, environmentId, { items, rules, receivedAt, check });
}
