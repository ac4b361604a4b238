import { createHash } from 'node:crypto';
import type { TopicDefinition } from '@engage/contracts';
import type { IHeaders } from 'kafkajs';

/**
 * Records are plain Avro binary. Two headers name the writer's schema so a consumer (or an analyst
 * with the .avsc files from the repo) knows exactly how to read each record.
 */
export const SCHEMA_HEADER = 'engage-schema';
export const FINGERPRINT_HEADER = 'engage-schema-fingerprint';

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
  return def.type.toBuffer(value);
}

export function decodeRecord<T>(def: TopicDefinition<T>, value: Buffer): T {
  return def.type.fromBuffer(value) as T;
}

export function schemaHeaders(def: Pick<TopicDefinition<unknown>, 'base' | 'type'>): IHeaders {
  return { [SCHEMA_HEADER]: def.base, [FINGERPRINT_HEADER]: schemaFingerprint(def) };
}
