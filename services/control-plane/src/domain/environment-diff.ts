import type { EnvironmentFile, EventDefinition, ItemChange } from '@engage/contracts/environment-file.ts';
import type { PlayerAttributeDefinition } from '@engage/contracts/http/players.ts';

/**
 * What applying an environment file changes in the gateway's own sections: each item created,
 * updated (with the fields that differ), unchanged or removed. Pure, so a dry run and the real
 * apply compute the same answer.
 */

export interface GatewaySectionsState {
  discovery: boolean;
  events: EventDefinition[];
  playerAttributes: PlayerAttributeDefinition[];
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
  const events = file.events ?? current.events;
  if (file.events !== undefined) {
    changes.push(...diffItems('events', current.events, file.events, changedEventFields));
  }
  const playerAttributes = file.playerAttributes ?? current.playerAttributes;
  if (file.playerAttributes !== undefined) {
    changes.push(
      ...diffItems(
        'playerAttributes',
        current.playerAttributes,
        file.playerAttributes,
        changedAttributeFields,
      ),
    );
  }
  return { changes, next: { discovery, events, playerAttributes } };
}

/** Every wanted item created, updated or unchanged, then every current item not wanted removed. */
function diffItems<T extends { key: string }>(
  section: string,
  current: readonly T[],
  wanted: readonly T[],
  changedFields: (a: T, b: T) => string[],
): ItemChange[] {
  const changes: ItemChange[] = [];
  const before = new Map(current.map((item) => [item.key, item]));
  for (const item of wanted) {
    const existing = before.get(item.key);
    if (!existing) {
      changes.push({ section, key: item.key, change: 'created', fields: [] });
      continue;
    }
    const fields = changedFields(existing, item);
    changes.push({ section, key: item.key, change: fields.length ? 'updated' : 'unchanged', fields });
  }
  const wantedKeys = new Set(wanted.map((item) => item.key));
  for (const existing of current) {
    if (!wantedKeys.has(existing.key))
      changes.push({ section, key: existing.key, change: 'removed', fields: [] });
  }
  return changes;
}

function changedAttributeFields(a: PlayerAttributeDefinition, b: PlayerAttributeDefinition): string[] {
  const fields: string[] = [];
  if (a.type !== b.type) fields.push('type');
  if (a.active !== b.active) fields.push('active');
  if ((a.description ?? null) !== (b.description ?? null)) fields.push('description');
  return fields;
}

function changedEventFields(a: EventDefinition, b: EventDefinition): string[] {
  const fields: string[] = [];
  if (a.active !== b.active) fields.push('active');
  if ((a.description ?? null) !== (b.description ?? null)) fields.push('description');
  if ((a.discovered ?? false) !== (b.discovered ?? false)) fields.push('discovered');
  const names = new Set([...Object.keys(a.properties), ...Object.keys(b.properties)]);
  for (const name of [...names].sort()) {
    const x = a.properties[name];
    const y = b.properties[name];
    if (!x || !y || x.type !== y.type || x.required !== y.required) fields.push(`properties.${name}`);
  }
  return fields;
}

export const hasChanges = (changes: readonly ItemChange[]) => changes.some((c) => c.change !== 'unchanged');
