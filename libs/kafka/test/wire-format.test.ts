import { type TopicDefinition, topics } from '@engage/contracts';
import avro from 'avsc';
import { describe, expect, it } from 'vitest';
import { decodeRecord, SCHEMA_HEADER, schemaHeaders } from '../src/codec.ts';
import { framed, WIRE_PREFIX_BYTES, wireSchemaIdOf, writeWirePrefix } from '../src/wire-format.ts';

describe('the Confluent wire format', () => {
  it('frames a body behind a zero byte and the big-endian schema id', () => {
    const value = framed(0x01020304, Buffer.from([7, 8]));
    expect([...value]).toEqual([0, 1, 2, 3, 4, 7, 8]);
    const slab = Buffer.alloc(8, 0xff);
    writeWirePrefix(slab, 2, 42);
    expect([...slab]).toEqual([0xff, 0xff, 0, 0, 0, 0, 42, 0xff]);
    expect(WIRE_PREFIX_BYTES).toBe(5);
  });

  it('tells framed records from plain ones by the first byte and the engage-schema header', () => {
    const value = framed(42, Buffer.from([1, 2, 3]));
    // Another tool's record: no header of ours.
    expect(wireSchemaIdOf(value, undefined)).toBe(42);
    // Ours, framed: the header says so.
    expect(wireSchemaIdOf(value, 'rewards.granted.v1;fingerprint=ab;wire-format=confluent')).toBe(42);
    expect(
      wireSchemaIdOf(value, Buffer.from('rewards.granted.v1;fingerprint=ab;wire-format=confluent')),
    ).toBe(42);
    // Ours, plain Avro that happens to start with a zero byte.
    expect(wireSchemaIdOf(value, Buffer.from('rewards.granted.v1;fingerprint=ab'))).toBeUndefined();
    // Plain Avro not starting with zero, or too short to be framed.
    expect(wireSchemaIdOf(Buffer.from([2, 0, 0, 0, 1, 9]), undefined)).toBeUndefined();
    expect(wireSchemaIdOf(Buffer.from([0, 0, 0, 1]), undefined)).toBeUndefined();
  });

  it('leaves plain records plain while this process writes no registry ids', () => {
    expect(String(schemaHeaders(topics.rewardsGranted)[SCHEMA_HEADER])).not.toContain('wire-format');
  });

  it('decodes a plain record that starts with a zero byte through its header, and refuses a framed one with no schema loaded', () => {
    const def = {
      base: 'counts.v1',
      schemaFile: 'counts.v1.avsc',
      type: avro.Type.forSchema({
        type: 'record',
        name: 'Count',
        fields: [
          { name: 'n', type: 'long' },
          { name: 's', type: 'string' },
        ],
      }),
    } as unknown as TopicDefinition<{ n: number; s: string }>;
    const plain = def.type.toBuffer({ n: 0, s: 'abcd' });
    expect(plain[0]).toBe(0);
    const headers = schemaHeaders(def);
    expect(decodeRecord(def, plain, headers)).toEqual({ n: 0, s: 'abcd' });
    expect(() =>
      decodeRecord(def, framed(7, plain), {
        [SCHEMA_HEADER]: `${headers[SCHEMA_HEADER]};wire-format=confluent`,
      }),
    ).toThrow('no writer schema loaded for schema id 7 of counts.v1');
  });
});
