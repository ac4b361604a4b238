import { describe, expect, it } from 'vitest';
import { decodePlayerContext, encodePlayerContext } from '../src/http/internal.ts';
import { findUnrepresentableText, isRepresentableText, unrepresentableTextMessage } from '../src/text.ts';

describe('representable text', () => {
  it('refuses U+0000 and unpaired surrogates, keeps every other character', () => {
    for (const text of ['\u0000', 'a\u0000b', '\ud800', 'x\udbff', '\udc00', '\udfffx', '\ude00\ud83d']) {
      expect(isRepresentableText(text), JSON.stringify(text)).toBe(false);
    }
    for (const text of [
      '',
      'plain',
      '\ud83d\ude00',
      '\ufffd',
      '\uffff',
      '\u0001\u007f',
      'é\u0301',
      '\u202e',
    ]) {
      expect(isRepresentableText(text), JSON.stringify(text)).toBe(true);
    }
  });

  it('names each place in a parsed value, values and keys, without repeating the text', () => {
    const value = JSON.parse(
      '{"ok":"fine","a":{"b":["x","bad\\u0000"]},"keys":{"k\\ud800":1},"c":[{"d":"\\udc00"}]}',
    );
    const found = findUnrepresentableText(value);
    expect(found).toEqual([
      { path: ['a', 'b', 1], inKey: false },
      { path: ['keys'], inKey: true },
      { path: ['c', 0, 'd'], inKey: false },
    ]);
    expect(found.map(unrepresentableTextMessage)).toEqual([
      'a.b.1 contains U+0000 or an unpaired UTF-16 surrogate, which cannot be stored.',
      'A field name in keys contains U+0000 or an unpaired UTF-16 surrogate, which cannot be stored.',
      'c.0.d contains U+0000 or an unpaired UTF-16 surrogate, which cannot be stored.',
    ]);
    expect(findUnrepresentableText({ 'top\u0000': 1 })).toEqual([{ path: [], inKey: true }]);
    expect(findUnrepresentableText('\u0000')).toEqual([{ path: [], inKey: false }]);
    expect(findUnrepresentableText({ a: [1, true, null, 'ok', { b: '😀' }] })).toEqual([]);
  });

  it('walks any depth without recursion and reports a bounded number of places', () => {
    const deep = JSON.parse(`${'['.repeat(200_000)}"\\u0000"${']'.repeat(200_000)}`);
    expect(findUnrepresentableText(deep)[0]?.path).toHaveLength(200_000);
    expect(findUnrepresentableText(Array(1000).fill('\u0000'))).toHaveLength(10);
  });

  it('refuses a player context header holding such text', () => {
    const header = encodePlayerContext({
      id: 'p',
      timeZone: null,
      attributes: { tier: 'gold\u0000' },
      isNew: false,
    });
    expect(() => decodePlayerContext(header)).toThrow(/attributes\.tier contains U\+0000/);
    const fine = { id: 'p', timeZone: null, attributes: { tier: 'gold' }, isNew: false };
    expect(decodePlayerContext(encodePlayerContext(fine))).toEqual(fine);
  });
});
