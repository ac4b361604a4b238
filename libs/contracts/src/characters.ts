/**
 * The contract counts lengths in characters: Unicode code points, not the UTF-16 units of a
 * JavaScript string (an emoji is one character and two units), and not bytes. PostgreSQL's
 * `char_length` counts the same way, and so does zod's string `max` (zod 4.6 and later), so every
 * limit reads the same at the edge, in the services and in the database's CHECK constraints.
 */

const isHighSurrogate = (unit: number) => (unit & 0xfc00) === 0xd800;
const isLowSurrogate = (unit: number) => (unit & 0xfc00) === 0xdc00;

/** The number of characters of a text; an unpaired surrogate counts as one, as `[...text]` does. */
export function characterCount(text: string): number {
  let count = text.length;
  for (let i = 0; i < text.length - 1; i++) {
    if (isHighSurrogate(text.charCodeAt(i)) && isLowSurrogate(text.charCodeAt(i + 1))) {
      count--;
      i++;
    }
  }
  return count;
}

/** Whether a text holds at most `limit` characters (a text that fits in units fits in characters). */
export function fitsCharacters(text: string, limit: number): boolean {
  return text.length <= limit || characterCount(text) <= limit;
}

/** The first `limit` characters of a text, never splitting a surrogate pair. */
export function firstCharacters(text: string, limit: number): string {
  if (text.length <= limit) return text;
  let end = 0;
  for (let taken = 0; taken < limit && end < text.length; taken++) {
    end += isHighSurrogate(text.charCodeAt(end)) && isLowSurrogate(text.charCodeAt(end + 1)) ? 2 : 1;
  }
  return text.slice(0, end);
}
