import type { PlayerSearchPage, PlayerSearchQuery } from '@engage/contracts/http/player-search.ts';
import type { Pool } from '@engage/postgres';
import { type FoundPlayer, searchPlayers } from '../store/player-search.ts';

const JSON_NUMBER = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/;

/**
 * The JSON values an attribute may hold to match the text an operator typed: the text itself, and
 * the number or boolean it spells (an attribute's type is the environment's to say, not the query's).
 */
export function attributeValuesOf(text: string): string[] {
  const values = [JSON.stringify(text)];
  if (JSON_NUMBER.test(text) || text === 'true' || text === 'false') values.push(text);
  return values;
}

/** One page of the search, and the cursor of the next when this one is full. */
export async function findPlayers(
  pool: Pool,
  environmentId: string,
  query: PlayerSearchQuery,
): Promise<{ players: FoundPlayer[]; nextCursor: PlayerSearchPage['nextCursor'] }> {
  const players = await searchPlayers(pool, environmentId, {
    idPrefix: query.idPrefix,
    attribute:
      query.attribute === undefined || query.value === undefined
        ? undefined
        : { key: query.attribute, values: attributeValuesOf(query.value) },
    after: query.after,
    limit: query.limit,
  });
  const last = players.at(-1);
  return { players, nextCursor: players.length === query.limit && last ? last.externalId : null };
}
