import { randomUUID } from 'node:crypto';
import type {
  ApiKeyChange,
  AttributeRecordValue,
  AttributeValue,
  ChangeActor,
  DefinitionApplied,
  DefinitionChange,
  EnvironmentKind,
  EventDefinitions,
  PlayerAttributesChanged,
} from '@engage/contracts';
import type { ItemChange } from '@engage/contracts/environment-file.ts';
import type { ApiKey } from '@engage/contracts/http/admin.ts';
import type { Actor } from '../store/audit-log.ts';

/**
 * The records of the gateway's state changes on their analyst topics (players.attributes.v1,
 * api-keys.v1, definitions.applied.v1): what each says, built from what the change wrote.
 */

export const changeActor = (actor: Actor): ChangeActor =>
  actor.kind === 'operator'
    ? { kind: 'Operator', operatorId: actor.operatorId }
    : { kind: 'AdminToken', operatorId: null };

/** A stored attribute as the record carries it; undefined for a value players' attributes never hold. */
function attributeRecordValue(value: AttributeValue): AttributeRecordValue | undefined {
  if (typeof value === 'string') return { type: 'String', string: value, number: null, boolean: null };
  if (typeof value === 'boolean') return { type: 'Boolean', string: null, number: null, boolean: value };
  if (value !== null && typeof value === 'object') {
    return { type: 'Number', string: null, number: value.decimal, boolean: null };
  }
  return undefined;
}

/** Decimals compare by their text: the gateway writes every number in one canonical form. */
const sameAttributeValue = (a: AttributeValue, b: AttributeValue) =>
  a !== null && b !== null && typeof a === 'object' && typeof b === 'object'
    ? a.decimal === b.decimal
    : a === b;

export interface PlayerState {
  timeZone: string | null;
  attributes: Record<string, AttributeValue>;
}

/**
 * The record of a player's attribute write, or undefined when it changed nothing. It carries the
 * whole set after the change, so each record alone gives the player's attributes at that point
 * (a reader need not fold from a first record that left the topic's retention), and the keys that
 * changed, so what the write did needs no comparison with the record before.
 */
export function playerAttributesRecord(input: {
  organizationId: string;
  environmentId: string;
  playerId: string;
  /** The player before the write; undefined when the write created it. */
  before: PlayerState | undefined;
  after: PlayerState;
  changedAt: Date;
}): PlayerAttributesChanged | undefined {
  const before = input.before ?? { timeZone: null, attributes: {} };
  const { after } = input;
  const keys = new Set([...Object.keys(before.attributes), ...Object.keys(after.attributes)]);
  const changedKeys = [...keys]
    .filter((key) => {
      const [was, is] = [before.attributes[key], after.attributes[key]];
      return was === undefined || is === undefined ? was !== is : !sameAttributeValue(was, is);
    })
    .sort();
  const timeZoneChanged = before.timeZone !== after.timeZone;
  if (changedKeys.length === 0 && !timeZoneChanged && input.before !== undefined) return undefined;
  return {
    changeId: randomUUID(),
    organizationId: input.organizationId,
    environmentId: input.environmentId,
    playerId: input.playerId,
    attributes: Object.fromEntries(
      Object.entries(after.attributes).flatMap(([key, value]) => {
        const recorded = attributeRecordValue(value);
        return recorded ? [[key, recorded]] : [];
      }),
    ),
    changedKeys,
    timeZone: after.timeZone,
    timeZoneChanged,
    isNewPlayer: input.before === undefined,
    changedAt: input.changedAt.toISOString(),
  };
}

/** The record of an API key created or revoked; the secret is never part of it. */
export function apiKeyRecord(input: {
  kind: ApiKeyChange['kind'];
  apiKey: ApiKey;
  organizationId: string;
  environmentKind: EnvironmentKind;
  actor: Actor;
  occurredAt: Date;
}): ApiKeyChange {
  return {
    changeId: randomUUID(),
    kind: input.kind,
    apiKeyId: input.apiKey.apiKeyId,
    publicId: input.apiKey.publicId,
    name: input.apiKey.name,
    organizationId: input.organizationId,
    environmentId: input.apiKey.environmentId,
    environmentKind: input.environmentKind,
    actor: changeActor(input.actor),
    occurredAt: input.occurredAt.toISOString(),
  };
}

const CHANGE_KINDS = { created: 'Created', updated: 'Updated', removed: 'Removed' } as const;

/** The items an apply changed, as the record lists them (unchanged items left out). */
export function definitionChanges(changes: readonly ItemChange[]): DefinitionChange[] {
  return changes.flatMap((c) =>
    c.change === 'unchanged'
      ? []
      : [{ section: c.section, key: c.key, change: CHANGE_KINDS[c.change], fields: [...c.fields] }],
  );
}

export function definitionAppliedRecord(input: {
  applyId: string;
  organizationId: string;
  environmentId: string;
  environmentKind: EnvironmentKind;
  version: number;
  /** `discovery`: the change is events or properties defined by their first occurrence. */
  actor: Actor | 'discovery';
  changes: readonly ItemChange[];
  appliedAt: Date;
  events: EventDefinitions;
}): DefinitionApplied {
  return {
    applyId: input.applyId,
    organizationId: input.organizationId,
    environmentId: input.environmentId,
    environmentKind: input.environmentKind,
    version: input.version,
    actor: input.actor === 'discovery' ? { kind: 'Discovery', operatorId: null } : changeActor(input.actor),
    changes: definitionChanges(input.changes),
    appliedAt: input.appliedAt.toISOString(),
    events: input.events,
  };
}
