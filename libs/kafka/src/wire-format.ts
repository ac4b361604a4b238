import type { IHeaders } from 'kafkajs';

/**
 * The Confluent wire format that Kafka Connect's AvroConverter, ksqlDB, Flink and ClickHouse's
 * `AvroConfluent` read: a zero byte, the writer schema's registry id (4 bytes, big-endian), then the
 * Avro body. Plain Avro can start with a zero byte too, so a record says which it is: ours carry
 * the `engage-schema` header, with the parameter `wire-format=confluent` when framed; a record
 * without the header starting with a zero byte is taken as framed (another tool wrote it).
 */
export const WIRE_PREFIX_BYTES = 5;
/** The header naming a record's schema (codec.ts). */
export const SCHEMA_HEADER = 'engage-schema';
const MAGIC_BYTE = 0;
export const WIRE_FORMAT_PARAMETER = 'wire-format=confluent';

/** Writes the zero byte and `schemaId` at `at` (WIRE_PREFIX_BYTES of them). */
export function writeWirePrefix(target: Buffer, at: number, schemaId: number): void {
  target[at] = MAGIC_BYTE;
  target.writeUInt32BE(schemaId, at + 1);
}

/** `body` framed under `schemaId`. */
export function framed(schemaId: number, body: Buffer): Buffer {
  const out = Buffer.allocUnsafe(WIRE_PREFIX_BYTES + body.length);
  writeWirePrefix(out, 0, schemaId);
  body.copy(out, WIRE_PREFIX_BYTES);
  return out;
}

/**
 * The registry id a record's value is framed under, or undefined for plain Avro. `schemaHeader` is
 * the record's `engage-schema` header. Cheap: most records fail the first byte test.
 */
export function wireSchemaIdOf(value: Buffer, schemaHeader: IHeaders[string]): number | undefined {
  if (value.length < WIRE_PREFIX_BYTES || value[0] !== MAGIC_BYTE) return undefined;
  if (schemaHeader !== undefined) {
    const header = Array.isArray(schemaHeader) ? schemaHeader[0] : schemaHeader;
    if (header !== undefined && !header.includes(WIRE_FORMAT_PARAMETER)) return undefined;
  }
  return value.readUInt32BE(1);
}
