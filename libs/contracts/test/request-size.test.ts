import { describe, expect, it } from 'vitest';
import { MAX_PLAYER_ID_LENGTH } from '../src/http/common.ts';
import {
  INTERNAL_MAX_HEADER_BYTES,
  MAX_HEADER_FIELDS_BYTES,
  MAX_PUBLIC_URL_BYTES,
  PUBLIC_MAX_HEADER_BYTES,
} from '../src/http/request-size.ts';
import { MAX_AROUND, MAX_NAMED_PLAYERS } from '../src/http/resources.ts';

/** A character of 4 bytes in UTF-8: the longest percent-encoding a character has. */
const astral = '\u{10FFFF}';

describe('request head limits', () => {
  it('fit the longest leaderboard read the contract allows, every id at its longest', () => {
    const query = new URLSearchParams({
      PlayerId: astral.repeat(MAX_PLAYER_ID_LENGTH),
      Top: '1000',
      Around: String(MAX_AROUND),
      Previous: 'false',
      LanguageCode: 'zh-Hant-TW-x-private',
    });
    for (let i = 0; i < MAX_NAMED_PLAYERS; i++)
      query.append('PlayerIds', astral.repeat(MAX_PLAYER_ID_LENGTH));
    const target = `/v1/leaderboards/${encodeURIComponent(astral.repeat(200))}?${query}`;
    expect(target.length).toBeLessThanOrEqual(MAX_PUBLIC_URL_BYTES);
  });

  it('leave the usual room for header fields, and the internal services room for the player context', () => {
    expect(PUBLIC_MAX_HEADER_BYTES).toBe(MAX_PUBLIC_URL_BYTES + MAX_HEADER_FIELDS_BYTES);
    expect(INTERNAL_MAX_HEADER_BYTES - PUBLIC_MAX_HEADER_BYTES).toBeGreaterThanOrEqual(1024 * 1024);
  });
});
