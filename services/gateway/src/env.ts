import { baseEnv, kafkaEnv, portEnv, postgresEnv, redisEnv } from '@engage/kit';
import { z } from 'zod';

const milliseconds = z.coerce.number().int().min(0);

export const gatewayEnv = baseEnv
  .extend(portEnv(8080).shape)
  .extend(postgresEnv.shape)
  .extend(kafkaEnv.shape)
  .extend(redisEnv.shape)
  .extend({
    ADMIN_TOKEN: z.string().min(16, 'ADMIN_TOKEN must be at least 16 characters'),
    RULES_URL: z.url().default('http://127.0.0.1:8081'),
    LEDGER_URL: z.url().default('http://127.0.0.1:8082'),
    QUERY_URL: z.url().default('http://127.0.0.1:8083'),
    /**
     * Largest POST /v1/events body: 8 MiB holds 1,000 maximal items (16 properties of 256-character
     * text, 200-character player id and idempotency key: about 7.1 MB of JSON without escapes).
     */
    EVENTS_BODY_LIMIT_BYTES: z.coerce
      .number()
      .int()
      .min(1024)
      .default(8 * 1024 * 1024),
    /** How long a key lookup is cached: revocations and billing changes take effect within it. */
    KEY_CACHE_TTL_MS: milliseconds.default(5_000),
    /** How long known players and event definitions are cached per replica. */
    PLAYER_CACHE_TTL_MS: milliseconds.default(5_000),
    DEFINITION_CACHE_TTL_MS: milliseconds.default(5_000),
  });

export type GatewayEnv = z.infer<typeof gatewayEnv>;
