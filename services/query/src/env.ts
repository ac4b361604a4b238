import { baseEnv, kafkaConsumerEnv, kafkaEnv, portEnv, postgresEnv, redisEnv } from '@engage/kit';
import { z } from 'zod';

export const queryEnv = baseEnv
  .extend(portEnv(8083).shape)
  .extend(postgresEnv.shape)
  .extend(redisEnv.shape)
  .extend(kafkaEnv.shape)
  .extend(kafkaConsumerEnv.shape)
  .extend({
    /** How often rows a crashed process left unmirrored are pushed to Redis. */
    MIRROR_SWEEP_INTERVAL_MS: z.coerce.number().int().min(100).default(2_000),
    /** How often ended leaderboard periods are looked for and settled. */
    SETTLE_INTERVAL_MS: z.coerce.number().int().min(100).default(5_000),
    /** How long after its end a period is settled: events received before the end still score meanwhile. */
    SETTLE_GRACE_MS: z.coerce.number().int().min(0).default(30_000),
    /** Events applied per Postgres transaction (larger: fewer commits, larger statements). */
    EVENTS_RECORDS_PER_TRANSACTION: z.coerce.number().int().min(1).max(20_000).default(5_000),
    /** How long a replica may serve leaderboard definitions changed on another replica. */
    DEFINITIONS_CACHE_MS: z.coerce.number().int().min(0).default(2_000),
  });

export type QueryEnv = z.infer<typeof queryEnv>;
