import { randomUUID } from 'node:crypto';
import type { AttributeRecordValue, AttributeValue, PlayerAttributesChanged } from '@engage/contracts';

/**
 * The record of the gateway's state changes on their analyst topic (players.attributes.v1): what
 * it says, built from what the change wrote.
 */

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
