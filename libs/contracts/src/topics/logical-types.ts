import avro from 'avsc';
import { formatUnscaled, parseUnscaled, smallUnscaled } from '../decimal.ts';

/**
 * Avro `decimal` (bytes, two's complement big-endian of the unscaled value) carried in JavaScript as
 * exact decimal text, so no digit is lost to a double anywhere between the HTTP body and the topic.
 */
export class DecimalAsText extends avro.types.LogicalType {
  readonly scale: number;

  constructor(schema: avro.Schema, opts?: avro.ForSchemaOptions) {
    super(schema, opts);
    this.scale = (schema as { scale?: number }).scale ?? 0;
  }

  override _fromValue(bytes: Buffer): string {
    return formatUnscaled(bytesToBigInt(bytes), this.scale);
  }

  /**
   * Bytes of recently written values: event numbers repeat (levels, prices, small counts), and
   * avsc copies the bytes it writes, so one Buffer per distinct text serves every record.
   */
  private written = new Map<string, Buffer>();

  override _toValue(text: unknown): Buffer | undefined {
    if (typeof text !== 'string') return undefined;
    const known = this.written.get(text);
    if (known) return known;
    const small = smallUnscaled(text, this.scale);
    const unscaled = small === undefined ? parseUnscaled(text, this.scale) : undefined;
    const bytes =
      small !== undefined
        ? smallToBytes(small)
        : unscaled !== undefined
          ? bigIntToBytes(unscaled)
          : undefined;
    if (bytes) {
      if (this.written.size >= MAX_REMEMBERED_DECIMALS) this.written = new Map();
      this.written.set(text, bytes);
    }
    return bytes;
  }

  override _resolve(type: avro.Type): ((v: unknown) => unknown) | undefined {
    return avro.Type.isType(type, 'logical:decimal') ? (v) => v : undefined;
  }
}

const MAX_REMEMBERED_DECIMALS = 20_000;

/** Avro `timestamp-millis` (long) carried in JavaScript as an ISO-8601 UTC string. */
export class TimestampMillisAsIso extends avro.types.LogicalType {
  /** The last value read: the records of one request share their receipt time (and often more). */
  private lastRead: { millis: number; iso: string } | undefined;

  override _fromValue(millis: number): string {
    if (this.lastRead?.millis === millis) return this.lastRead.iso;
    const iso = new Date(millis).toISOString();
    this.lastRead = { millis, iso };
    return iso;
  }

  /** The last value written: the records of one request share their receipt time (and often more). */
  private last: { iso: string; millis: number } | undefined;

  override _toValue(iso: unknown): number | undefined {
    if (typeof iso !== 'string') return undefined;
    if (this.last?.iso === iso) return this.last.millis;
    const millis = Date.parse(iso);
    if (Number.isNaN(millis)) return undefined;
    this.last = { iso, millis };
    return millis;
  }

  override _resolve(type: avro.Type): ((v: unknown) => unknown) | undefined {
    return avro.Type.isType(type, 'logical:timestamp-millis') ? (v) => v : undefined;
  }
}

export const logicalTypes = { decimal: DecimalAsText, 'timestamp-millis': TimestampMillisAsIso };

/** The same bytes as bigIntToBytes, by exact integer arithmetic on doubles (|value| < 2^53). */
function smallToBytes(value: number): Buffer {
  let bytes = 1;
  while (value >= 2 ** (8 * bytes - 1) || value < -(2 ** (8 * bytes - 1))) bytes++;
  const out = Buffer.allocUnsafe(bytes);
  let rest = value;
  for (let i = bytes - 1; i >= 0; i--) {
    const byte = ((rest % 256) + 256) % 256;
    out[i] = byte;
    rest = (rest - byte) / 256;
  }
  return out;
}

function bigIntToBytes(value: bigint): Buffer {
  const bytes = byteLength(value);
  // Padded to the full width: a positive value whose top byte is 0x00 (e.g. 3e9 = 00 b2 d0 5e 00) would
  // otherwise lose that byte and read back negative.
  const hex = BigInt.asUintN(8 * bytes, value)
    .toString(16)
    .padStart(2 * bytes, '0');
  return Buffer.from(hex, 'hex');
}

function byteLength(value: bigint): number {
  let bytes = 1;
  const bound = (b: number) => 1n << BigInt(8 * b - 1);
  while (value >= bound(bytes) || value < -bound(bytes)) bytes++;
  return bytes;
}

function bytesToBigInt(bytes: Buffer): bigint {
  if (bytes.length === 0) return 0n;
  return BigInt.asIntN(8 * bytes.length, BigInt(`0x${bytes.toString('hex')}`));
}
