import type { EventDefinitions } from '@engage/contracts';
import type { EventRule, EventRules } from './event-items.ts';

/**
 * What the edge (the gateway's /v1 path) knows of the control plane's event definitions, as the
 * `events` of definitions.applied.v1 carry them.
 */

/** The rules POST /v1/events checks items against, from a record's event definitions. */
export function eventRulesOf(events: EventDefinitions): EventRules {
  return {
    discovery: events.discovery,
    events: new Map(
      events.definitions.map((e): [string, EventRule] => [
        e.key,
        {
          key: e.key,
          active: e.active,
          properties: Object.fromEntries(
            e.properties.map((p) => [p.name, { type: p.type, required: p.required }]),
          ),
        },
      ]),
    ),
  };
}

/** An environment no definition was recorded for yet: discovery off, no events (as one created). */
export const NO_EVENT_RULES: EventRules = { discovery: false, events: new Map() };
