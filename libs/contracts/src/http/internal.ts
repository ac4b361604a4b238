import { z } from 'zod';
import { DECIMAL_TEXT } from '../decimal.ts';
import { refineRepresentableText } from '../text.ts';

/**
 * How the gateway hands a request to the owning service. The gateway authenticates the API key,
 * resolves the environment and the player, then forwards the same /v1 path with these headers.
 * Owning services trust them only when the gateway's signature over them verifies (libs/kit
 * internal-signature.ts, docs/security.md).
 */
export const INTERNAL_HEADERS = {
  organizationId: 'x-engage-organization-id',
  environmentId: 'x-engage-environment-id',
  environmentKind: 'x-engage-environment-kind',
  /** base64url(JSON(PlayerContext)) when the request names a player. */
  player: 'x-engage-player',
  /** When the gateway signed the call, in milliseconds since the epoch. */
  signedAt: 'x-engage-signed-at',
  /** base64url(HMAC-SHA256) over the call; see libs/kit internal-signature.ts. */
  signature: 'x-engage-signature',
} as const;

export const EnvironmentKindSchema = z.enum(['Sandbox', 'Live']);
export type EnvironmentKind = z.infer<typeof EnvironmentKindSchema>;

/**
 * A number attribute travels as its exact decimal text (`{ "decimal": "12345678901234567890.12345678" }`),
 * never as a JSON number that a double would round; plain numbers are still read (older senders).
 */
export const DecimalValueSchema = z.strictObject({ decimal: z.string().regex(DECIMAL_TEXT) });
export const AttributeValueSchema = z.union([
  z.string(),
  z.number(),
  z.boolean(),
  z.null(),
  DecimalValueSchema,
]);
export type AttributeValue = z.infer<typeof AttributeValueSchema>;

export const PlayerContextSchema = z.object({
  /** The caller's own id for the player. */
  id: z.string(),
  timeZone: z.string().nullable(),
  attributes: z.record(z.string(), AttributeValueSchema),
  /** True when this request was the first time the environment saw the player. */
  isNew: z.boolean(),
});
export type PlayerContext = z.infer<typeof PlayerContextSchema>;

export interface EnvironmentContext {
  organizationId: string;
  environmentId: string;
  environmentKind: EnvironmentKind;
}

export function encodePlayerContext(player: PlayerContext): string {
  return Buffer.from(JSON.stringify(player)).toString('base64url');
}

/** The gateway never sends text that cannot be stored; a header that holds some is refused all the same. */
const ReceivedPlayerContextSchema = PlayerContextSchema.superRefine(refineRepresentableText);

export function decodePlayerContext(header: string): PlayerContext {
  return ReceivedPlayerContextSchema.parse(JSON.parse(Buffer.from(header, 'base64url').toString('utf8')));
}
