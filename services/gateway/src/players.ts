import { MAX_PLAYER_ID_LENGTH, type PlayerContext } from '@engage/contracts';
import { requestProblem, validationProblem } from '@engage/kit';
import type { Pool } from '@engage/postgres';
import { TtlCache } from './cache.ts';
import { upsertPlayers } from './store/players.ts';

/**
 * The player a forwarded request names, created on first sight. Known players are cached briefly so
 * reads by the same player do not touch Postgres on every request.
 */
export interface PlayerResolver {
  resolve(environmentId: string, externalId: string): Promise<PlayerContext>;
}

export function createPlayerResolver(options: { pool: Pool; cacheTtlMs: number }): PlayerResolver {
  const known = new TtlCache<string, PlayerContext>({ ttlMs: options.cacheTtlMs, maxEntries: 100_000 });
  return {
    async resolve(environmentId, externalId) {
      const cacheKey = `${environmentId}\u0000${externalId}`;
      const cached = known.get(cacheKey);
      if (cached) return cached;
      const records = await upsertPlayers(options.pool, environmentId, [{ externalId, timeZone: null }]);
      const record = records.get(externalId)!;
      const player = {
        id: externalId,
        timeZone: record.timeZone,
        attributes: record.attributes,
        isNew: record.isNew,
      };
      known.set(cacheKey, { ...player, isNew: false });
      return player;
    },
  };
}

/**
 * The player id of a request: the PlayerId query parameter (GET) or the playerId body field (POST).
 * Missing and too long have the contract's own codes; anything else that is not text is
 * `validation.player_id`.
 */
export function playerIdOf(source: 'query' | 'body', container: unknown): string {
  if (
    source === 'body' &&
    (container === null || typeof container !== 'object' || Array.isArray(container))
  ) {
    throw requestProblem('The request body must be a JSON object.', 'not_an_object');
  }
  const field = source === 'query' ? 'PlayerId' : 'playerId';
  const value = (container as Record<string, unknown> | undefined)?.[field];
  if (value === undefined || value === null || value === '') {
    throw validationProblem([
      { path: [field], message: 'The player id is required.', reason: 'missing', missing: true },
    ]);
  }
  if (typeof value !== 'string') {
    throw validationProblem([
      { path: [field], message: 'The player id must be text.', reason: 'invalid_type' },
    ]);
  }
  if (value.length > MAX_PLAYER_ID_LENGTH) {
    throw validationProblem([
      {
        path: [field],
        message: `The player id is longer than ${MAX_PLAYER_ID_LENGTH} characters.`,
        reason: 'too_big',
        tooLong: true,
      },
    ]);
  }
  return value;
}
