import { z } from 'zod';

export const MAX_PLAYER_ID_LENGTH = 200;
export const MAX_IDEMPOTENCY_KEY_LENGTH = 200;
/** Response header of a write answered from its idempotency key: the stored outcome, replayed. */
export const IDEMPOTENT_REPLAYED_HEADER = 'idempotent-replayed';

/** The caller's own id for a player. Missing and too long have their own codes (see http/fields.ts). */
export const PlayerIdSchema = z.string().min(1).max(MAX_PLAYER_ID_LENGTH);
export const IdempotencyKeySchema = z.string().min(1).max(MAX_IDEMPOTENCY_KEY_LENGTH);
export const LanguageCodeSchema = z
  .string()
  .min(2)
  .max(35)
  .regex(/^[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8})*$/, 'must be a BCP 47 language tag such as en or pt-BR');
export const KeySchema = z.string().min(1).max(100);
export const ImagesSchema = z.record(z.string(), z.string());
export const TimestampSchema = z.iso.datetime({ offset: true });

/** Query booleans arrive as text. Only the two literal spellings are accepted. */
export const QueryBooleanSchema = z.enum(['true', 'false']).transform((v) => v === 'true');
/** Query integers arrive as text; int32 as the contract says. */
export const QueryInt32Schema = z.coerce.number().int().min(-2147483648).max(2147483647);

export const PlayerQuerySchema = z.object({ PlayerId: PlayerIdSchema });
export const LocalizedPlayerQuerySchema = PlayerQuerySchema.extend({
  LanguageCode: LanguageCodeSchema.optional(),
});
export const PlayerBodySchema = z.object({ playerId: PlayerIdSchema });
