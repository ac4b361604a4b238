import avro from 'avsc';

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

  override _toValue(text: unknown): Buffer | undefined {
    if (typeof text !== 'string') return undefined;
    const unscaled = parseUnscaled(text, this.scale);
    return unscaled === undefined ? undefined : bigIntToBytes(unscaled);
  }

  override _resolve(type: avro.Type): ((v: unknown) => unknown) | undefined {
    return avro.Type.isType(type, 'logical:decimal') ? (v) => v : undefined;
  }
}

/** Avro `timestamp-millis` (long) carried in JavaScript as an ISO-8601 UTC string. */
export class TimestampMillisAsIso extends avro.types.LogicalType {
  override _fromValue(millis: number): string {
    return new Date(millis).toISOString();
  }

  override _toValue(iso: unknown): number | undefined {
    if (typeof iso !== 'string') return undefined;
    const millis = Date.parse(iso);
    return Number.isNaN(millis) ? undefined : millis;
  }

  override _resolve(type: avro.Type): ((v: unknown) => unknown) | undefined {
    return avro.Type.isType(type, 'logical:timestamp-millis') ? (v) => v : undefined;
  }
}

export const logicalTypes = { decimal: DecimalAsText, 'timestamp-millis': TimestampMillisAsIso };

const DECIMAL_TEXT = /^(-)?(\d+)(?:\.(\d+))?$/;

export function parseUnscaled(text: string, scale: number): bigint | undefined {
  const match = DECIMAL_TEXT.exec(text);
  if (!match) return undefined;
  const [, sign, whole, fraction = ''] = match;
  if (fraction.length > scale) return undefined;
  const unscaled = BigInt(whole + fraction.padEnd(scale, '0'));
  return sign ? -unscaled : unscaled;
}

export function formatUnscaled(unscaled: bigint, scale: number): string {
  const negative = unscaled < 0n;
  const digits = (negative ? -unscaled : unscaled).toString().padStart(scale + 1, '0');
  const whole = digits.slice(0, digits.length - scale);
  const fraction = scale > 0 ? digits.slice(digits.length - scale).replace(/0+$/, '') : '';
  return `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
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
