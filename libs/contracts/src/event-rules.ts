import type { PropertyType } from './http/events.ts';

/**
 * An environment's event definitions as the edge checks event items against them: the control
 * plane records them (and what discovery defines), the gateway holds them from definitions.applied.v1.
 */

export interface PropertyRule {
  type: PropertyType;
  required: boolean;
}

export interface EventRule {
  key: string;
  active: boolean;
  properties: Record<string, PropertyRule>;
}

export interface EventRules {
  discovery: boolean;
  events: ReadonlyMap<string, EventRule>;
}
