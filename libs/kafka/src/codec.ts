import { createHash } from 'node:crypto';
import { hasUndecodableText, type TopicDefinition } from '@engage/contracts';
import type { IHeaders } from 'kafkajs';
import { decodeFramed, writerSchemaIdOf } from './schema-registry.ts';
import {
  framed,
  SCHEMA_HEADER,
  WIRE_FORMAT_PARAMETER,
  WIRE_PREFIX_BYTES,
  wireSchemaIdOf,
  writeWirePrefix,
} from './wire-format.ts';

export { SCHEMA_HEADER };

/**
 * Records are plain Avro binary. One header names the writer's schema, so a consumer (or an analyst
 * with the .avsc files from the repo) knows exactly how to read each record: the schema's name with
 * its fingerprint as a parameter, `events.accepted.v1;fingerprint=0123456789abcdef` (the form of a
 * media type's parameters, RFC 9110 section 5.6.6). One header rather than two: kafkajs encodes
 * every header of every record on its own, and this one is on every record of every topic.
 *
 * In registry mode (schema-registry.ts) the value is framed in the Confluent wire format instead,
 * and the header says so: `events.accepted.v1;fingerprint=…;wire-format=confluent`.
 */
const FINGERPRINT_PARAMETER = 'fingerprint';

const fingerprints = new WeakMap<object, string>();

export function schemaFingerprint(def: Pick<TopicDefinition<unknown>, 'type'>): string {
  let fp = fingerprints.get(def);
  if (!fp) {
    fp = createHash('sha256').update(JSON.stringify(def.type.schema())).digest('hex').slice(0, 16);
    fingerprints.set(def, fp);
  }
  return fp;
}

export function encodeRecord<T>(def: TopicDefinition<T>, value: T): Buffer {
  const id = writerSchemaIdOf(def);
  const body = def.type.toBuffer(value);
  return id === undefined ? body : framed(id, body);
}

const SLAB_BYTES = 256 * 1024;
/** What a slab is sized by before any record of the call was encoded. */
const FIRST_GUESS_BYTES_PER_RECORD = 256;

/**
 * Encodes many records into shared slabs and answers a view of each (`toBuffer` allocates, zero-fills
 * and copies a Buffer per record, a large part of the cost of small records). A slab is sized for the
 * records still to encode, at the average size of those encoded so far, up to SLAB_BYTES: a slab of
 * the full size for a call of one or two records would be that much Buffer memory per ledger
 * transaction, and V8's external memory pressure would start full collections often. A record that does not fit the slab's rest starts a new slab; one larger than
 * a slab gets a Buffer of its own.
 */
export function encodeRecords<T>(def: TopicDefinition<T>, values: readonly T[]): Buffer[] {
  const id = writerSchemaIdOf(def);
  // In registry mode each record starts with the wire format's prefix, written before its body.
  const prefix = id === undefined ? 0 : WIRE_PREFIX_BYTES;
  const encoded: Buffer[] = new Array(values.length);
  let bytesEncoded = 0;
  const slabFor = (next: number) => {
    const perRecord = next === 0 ? FIRST_GUESS_BYTES_PER_RECORD : Math.ceil(bytesEncoded / next);
    return Buffer.allocUnsafe(Math.min(SLAB_BYTES, Math.ceil((values.length - next) * perRecord * 1.25)));
  };
  let slab = slabFor(0);
  let at = 0;
  for (let i = 0; i < values.length; i++) {
    let end = def.type.encode(values[i], slab, at + prefix);
    if (end < 0 && at > 0) {
      slab = slabFor(i);
      at = 0;
      end = def.type.encode(values[i], slab, prefix);
    }
    if (end < 0) {
      const body = def.type.toBuffer(values[i]);
      encoded[i] = id === undefined ? body : framed(id, body);
      bytesEncoded += encoded[i]!.length;
      continue;
    }
    if (id !== undefined) writeWirePrefix(slab, at, id);
    encoded[i] = slab.subarray(at, end);
    bytesEncoded += end - at;
    at = end;
  }
  return encoded;
}

/**
 * A record's value, plain Avro or framed in the Confluent wire format (told apart by the first byte
 * and the `engage-schema` header in `headers`). A framed record's writer schema must have been
 * loaded (`loadWriterSchemas`, which consumers call per batch). Throws for a record whose text was
 * not UTF-8 as written, which decoding would turn into U+FFFD, and for one its topic's `defectOf`
 * finds the API would have refused.
 */
export function decodeRecord<T>(def: TopicDefinition<T>, value: Buffer, headers?: IHeaders): T {
  const id = wireSchemaIdOf(value, headers?.[SCHEMA_HEADER]);
  const decoded = id === undefined ? def.type.fromBuffer(value) : decodeFramed(def, id, value);
  // What the gateway refuses as text a record cannot carry either (a consumer sets it aside).
  if (hasUndecodableText(decoded, value)) {
    throw new Error(
      'A text of the record is not UTF-8 (an unpaired UTF-16 surrogate, say): the API refuses such text.',
    );
  }
  const defect = def.defectOf?.(decoded as T);
  if (defect !== undefined) throw new Error(`The record holds what the API refuses: ${defect}.`);
  return decoded as T;
}

export function schemaHeaders(def: Pick<TopicDefinition<unknown>, 'base' | 'type'>): IHeaders {
  const header = `${def.base};${FINGERPRINT_PARAMETER}=${schemaFingerprint(def)}`;
  return {
    [SCHEMA_HEADER]: writerSchemaIdOf(def) === undefined ? header : `${header};${WIRE_FORMAT_PARAMETER}`,
  };
}

/** The schema a record names in its `engage-schema` header; undefined when it names none. */
export function parseSchemaHeader(
  value: Buffer | string | undefined,
): { name: string; fingerprint: string | undefined } | undefined {
  if (value === undefined) return undefined;
  const [name = '', ...parameters] = String(value).split(';');
  if (name.trim() === '') return undefined;
  let fingerprint: string | undefined;
  for (const parameter of parameters) {
    const at = parameter.indexOf('=');
    if (at > 0 && parameter.slice(0, at).trim().toLowerCase() === FINGERPRINT_PARAMETER) {
      fingerprint = parameter.slice(at + 1).trim();
    }
  }
  return { name: name.trim(), fingerprint };
}
