import {
  baseEnv,
  internalAuthEnv,
  kafkaConsumerEnv,
  kafkaEnv,
  metricsPortEnv,
  portEnv,
  postgresEnv,
  redisEnv,
  withKafkaSecurity,
} from '@engage/kit';
import { z } from 'zod';

export const queryEnv = baseEnv
  .extend(portEnv(8083).shape)
  .extend(metricsPortEnv(9467).shape)
  .extend(postgresEnv.shape)
  .extend(internalAuthEnv.shape)
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
    /**
     * What this process does: `all` serves reads and applies updates; `reads` only serves the HTTP
     * API (read-only replicas); `updates` applies events, mirrors, settles and publishes, and serves
     * the HTTP API only for its probes and metrics (no read traffic is routed to it).
     */
    QUERY_ROLE: z.enum(['all', 'reads', 'updates']).default('all'),
    /** How long a replica serves a live board's top rows and participant count before asking Redis again. */
    LEADERBOARD_TOP_CACHE_MS: z.coerce.number().int().min(0).max(5_000).default(250),
    /** How long a replica serves a display name it read from Redis before asking again. */
    DISPLAY_NAMES_CACHE_MS: z.coerce.number().int().min(0).max(60_000).default(5_000),
  })
  .transform(withKafkaSecurity);

export type QueryEnv = z.infer<typeof queryEnv>;
