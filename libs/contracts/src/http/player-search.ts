import { z } from 'zod';
import { MAX_PLAYER_ID_LENGTH, PlayerIdSchema, QueryInt32Schema } from './common.ts';

/**
 * Operators' search of an environment's players
 * (`GET /admin/v1/environments/{environmentId}/players`): by the start of their id, by one
 * attribute's value, or both, in order of id, one page at a time.
 */

export const MAX_PLAYER_SEARCH_PAGE = 100;

export const PlayerSearchQuerySchema = z
  .object({
    /** Players whose id starts with this text. */
    idPrefix: z.string().min(1).max(MAX_PLAYER_ID_LENGTH).optional(),
    /** Players holding this attribute with `value`. */
    attribute: z.string().min(1).max(100).optional(),
    /** The attribute's value as text: `gold`, `12.5` (any equal number), `true`. */
    value: z.string().min(1).max(1_000).optional(),
    /** The last `playerId` of the previous page. */
    after: PlayerIdSchema.optional(),
    limit: QueryInt32Schema.pipe(z.number().min(1).max(MAX_PLAYER_SEARCH_PAGE)).default(50),
  })
  .superRefine((query, ctx) => {
    if ((query.attribute === undefined) !== (query.value === undefined)) {
      ctx.addIssue({
        code: 'custom',
        path: [query.attribute === undefined ? 'attribute' : 'value'],
        message: 'attribute and value go together: the attribute to match and the value it must hold.',
      });
    }
  });
export type PlayerSearchQuery = z.infer<typeof PlayerSearchQuerySchema>;

export const FoundPlayerSchema = z
  .object({
    playerId: z.string(),
    timeZone: z.string().nullable(),
    /** Numbers are exact: as many digits as were stored. */
    attributes: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])),
  })
  .meta({ id: 'AdminFoundPlayer' });

export const PlayerSearchPageSchema = z
  .object({
    players: z.array(FoundPlayerSchema),
    /** Pass as `after` for the next page; null on the last. */
    nextCursor: z.string().nullable(),
  })
  .meta({ id: 'AdminPlayerSearchPage' });
export type PlayerSearchPage = z.infer<typeof PlayerSearchPageSchema>;
