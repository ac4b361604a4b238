import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { characterCount, firstCharacters, fitsCharacters } from '../src/characters.ts';
import { PlayerIdSchema } from '../src/http/common.ts';

const emoji = '\u{1F600}';

describe('lengths in characters', () => {
  it('counts code points, a lone surrogate as one, as spreading a string does', () => {
    for (const text of [
      '',
      'abc',
      emoji,
      `a${emoji}b`,
      'é\u0301',
      '\ud800',
      '\udc00\ud800',
      `${emoji}\ud83d`,
    ]) {
      expect(characterCount(text), JSON.stringify(text)).toBe([...text].length);
    }
    expect(characterCount(emoji.repeat(200))).toBe(200);
  });

  it('tells whether a text fits a limit, whatever its units', () => {
    expect(fitsCharacters(emoji.repeat(200), 200)).toBe(true);
    expect(fitsCharacters(emoji.repeat(201), 200)).toBe(false);
    expect(fitsCharacters(`${'a'.repeat(199)}${emoji}`, 200)).toBe(true);
    expect(fitsCharacters('a'.repeat(201), 200)).toBe(false);
  });

  it('cuts a text to a number of characters without splitting a surrogate pair', () => {
    expect(firstCharacters(`a${emoji}${emoji}b`, 2)).toBe(`a${emoji}`);
    expect(firstCharacters(emoji.repeat(300), 200)).toBe(emoji.repeat(200));
    expect(firstCharacters('short', 200)).toBe('short');
  });

  it("agrees with zod's string limits, which every schema of the contract uses", () => {
    for (const text of [
      emoji.repeat(200),
      emoji.repeat(201),
      `${'a'.repeat(199)}${emoji}`,
      'a'.repeat(201),
    ]) {
      expect(PlayerIdSchema.safeParse(text).success, `${characterCount(text)} characters`).toBe(
        fitsCharacters(text, 200),
      );
      expect(z.string().max(3).safeParse(text.slice(0, 8)).success).toBe(fitsCharacters(text.slice(0, 8), 3));
    }
  });
});
