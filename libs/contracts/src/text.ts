import type { z } from 'zod';

/**
 * Text that cannot be kept faithfully is refused wherever a string enters the API: U+0000, which
 * PostgreSQL cannot store in text, and an unpaired UTF-16 surrogate (`\ud800` alone in JSON), which
 * has no UTF-8 form and would become U+FFFD on the way to storage, so different keys would collide.
 */

/** The `meta.reason` of an error refusing such text; the code names the field as usual. */
export const UNREPRESENTABLE_TEXT_REASON = 'unrepresentable_text';

// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f]/;

/** Ids are stored and compared as text: C0 controls and DEL (NUL cannot even be stored) are refused. */
export function hasControlCharacter(text: string): boolean {
  return CONTROL_CHARACTER.test(text);
}

export function isRepresentableText(text: string): boolean {
  return text.isWellFormed() && !text.includes('\u0000');
}

/** Where unrepresentable text sits in a JSON value: the path of the string, or of the object whose key it is. */
export interface UnrepresentableText {
  path: (string | number)[];
  /** True when the text is a key of the object at `path` rather than a value. */
  inKey: boolean;
}

/** Most places reported for one value; a hostile body could otherwise make the answer as large as itself. */
const MAX_REPORTED = 10;

/** A value still to visit, with the way back to the root (paths are built only for what is reported). */
interface Visit {
  value: unknown;
  key: string | number | undefined;
  parent: Visit | undefined;
}

const pathOf = (visit: Visit): (string | number)[] => {
  const path: (string | number)[] = [];
  for (let at: Visit | undefined = visit; at?.key !== undefined; at = at.parent) path.push(at.key);
  return path.reverse();
};

/**
 * Every place (up to a few) in a parsed JSON value where a string or an object key is not
 * representable. Iterative, so arbitrarily deep nesting cannot exhaust the stack; the paths name
 * only keys that are themselves representable.
 */
export function findUnrepresentableText(root: unknown): UnrepresentableText[] {
  const found: UnrepresentableText[] = [];
  const pending: Visit[] = [{ value: root, key: undefined, parent: undefined }];
  while (pending.length > 0 && found.length < MAX_REPORTED) {
    const visit = pending.pop()!;
    const { value } = visit;
    if (typeof value === 'string') {
      if (!isRepresentableText(value)) found.push({ path: pathOf(visit), inKey: false });
    } else if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) pending.push({ value: value[i], key: i, parent: visit });
    } else if (value !== null && typeof value === 'object') {
      const keys = Object.keys(value);
      if (!keys.every(isRepresentableText)) {
        found.push({ path: pathOf(visit), inKey: true });
        continue;
      }
      for (let i = keys.length - 1; i >= 0; i--) {
        const key = keys[i]!;
        pending.push({ value: (value as Record<string, unknown>)[key], key, parent: visit });
      }
    }
  }
  return found;
}

/** The error message for one place, naming it by its path (never repeating the text itself). */
export function unrepresentableTextMessage({ path, inKey }: UnrepresentableText): string {
  const where = path.join('.');
  const subject = inKey ? (where ? `A field name in ${where}` : 'A field name') : where || 'The value';
  return `${subject} contains U+0000 or an unpaired UTF-16 surrogate, which cannot be stored.`;
}

/** A zod `superRefine` for values parsed from JSON: one issue per place of unrepresentable text. */
export function refineRepresentableText(value: unknown, ctx: z.RefinementCtx): void {
  for (const place of findUnrepresentableText(value)) {
    ctx.addIssue({
      code: 'custom',
      path: place.path,
      message: unrepresentableTextMessage(place),
      params: { reason: UNREPRESENTABLE_TEXT_REASON },
    });
  }
}

const REPLACEMENT_CHARACTER = '\ufffd';
const REPLACEMENT_CHARACTER_UTF8 = Buffer.from(REPLACEMENT_CHARACTER, 'utf8');

/**
 * Whether text decoded from `bytes` (a Kafka record, say) was not UTF-8 where it was written.
 * Decoding turns what is not UTF-8 into U+FFFD: an unpaired surrogate, which a JavaScript Avro
 * encoder writes as the three bytes of a surrogate, reads back as U+FFFD three times. So text that
 * holds more U+FFFD than `bytes` hold encoded U+FFFD lost characters on the way: the edge refuses
 * such text, and readers of records refuse it too.
 */
export function hasUndecodableText(decoded: unknown, bytes: Buffer): boolean {
  const replaced = replacementCharactersIn(decoded);
  return replaced > 0 && replaced > occurrences(bytes, REPLACEMENT_CHARACTER_UTF8);
}

/** U+FFFD in every string and key of a decoded value (bytes values are not text). */
function replacementCharactersIn(root: unknown): number {
  let count = 0;
  const pending: unknown[] = [root];
  while (pending.length > 0) {
    const value = pending.pop();
    if (typeof value === 'string') {
      count += occurrencesInText(value);
    } else if (Array.isArray(value)) {
      for (const item of value) pending.push(item);
    } else if (value !== null && typeof value === 'object' && !ArrayBuffer.isView(value)) {
      for (const [key, item] of Object.entries(value)) {
        count += occurrencesInText(key);
        pending.push(item);
      }
    }
  }
  return count;
}

function occurrencesInText(text: string): number {
  let count = 0;
  for (
    let at = text.indexOf(REPLACEMENT_CHARACTER);
    at !== -1;
    at = text.indexOf(REPLACEMENT_CHARACTER, at + 1)
  )
    count++;
  return count;
}

function occurrences(bytes: Buffer, sequence: Buffer): number {
  let count = 0;
  for (let at = bytes.indexOf(sequence); at !== -1; at = bytes.indexOf(sequence, at + sequence.length))
    count++;
  return count;
}
