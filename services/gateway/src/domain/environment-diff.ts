import type { EnvironmentFile, EventDefinition, ItemChange } from '@engage/contracts/environment-file.ts';

/**
 * What applying an environment file changes in the gateway's own sections: each item created,
 * updated (with the fields that differ), unchanged or removed. Pure, so a dry run and the real
 * apply compute the same answer.
 */

export interface GatewaySectionsState {
  discovery: boolean;
  events: EventDefinition[];
}

export interface GatewayPlan {
  changes: ItemChange[];
  /** The state to write (equal to the current one when nothing changes). */
  next: GatewaySectionsState;
}

export function planGatewaySections(current: GatewaySectionsState, file: EnvironmentFile): GatewayPlan {
  const changes: ItemChange[] = [];
  const discovery = file.discovery ?? current.discovery;
  if (file.discovery !== undefined) {
    changes.push({
      section: 'discovery',
      key: 'discovery',
      change: discovery === current.discovery ? 'unchanged' : 'updated',
      fields: discovery === current.discovery ? [] : ['discovery'],
    });
  }
  if (file.events === undefined) return { changes, next: { discovery, events: current.events } };

  const before = new Map(current.events.map((event) => [event.key, event]));
  for (const wanted of file.events) {
    const existing = before.get(wanted.key);
    if (!existing) {
      changes.push({ section: 'events', key: wanted.key, change: 'created', fields: [] });
      continue;
    }
    const fields = changedEventFields(existing, wanted);
    changes.push({
      section: 'events',
      key: wanted.key,
      change: fields.length ? 'updated' : 'unchanged',
      fields,
    });
  }
  const wantedKeys = new Set(file.events.map((event) => event.key));
  for (const existing of current.events) {
    if (!wantedKeys.has(existing.key)) {
      changes.push({ section: 'events', key: existing.key, change: 'removed', fields: [] });
    }
  }
  return { changes, next: { discovery, events: file.events } };
}

function changedEventFields(a: EventDefinition, b: EventDefinition): string[] {
  const fields: string[] = [];
  if (a.active !== b.active) fields.push('active');
  if ((a.description ?? null) !== (b.description ?? null)) fields.push('description');
  const names = new Set([...Object.keys(a.properties), ...Object.keys(b.properties)]);
  for (const name of [...names].sort()) {
    const x = a.properties[name];
    const y = b.properties[name];
    if (!x || !y || x.type !== y.type || x.required !== y.required) fields.push(`properties.${name}`);
  }
  return fields;
}

export const hasChanges = (changes: readonly ItemChange[]) => changes.some((c) => c.change !== 'unchanged');
