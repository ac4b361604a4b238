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
import { organizationLimitEnv } from './application/organization-limit/env.ts';

const milliseconds = z.coerce.number().int().min(0);

export const gatewayEnv = baseEnv
  .extend(portEnv(8080).shape)
  .extend(metricsPortEnv(9464).shape)
  .extend(postgresEnv.shape)
  .extend(kafkaEnv.shape)
  .extend(kafkaConsumerEnv.shape)
  .extend(redisEnv.shape)
  .extend(organizationLimitEnv.shape)
  .extend(internalAuthEnv.shape)
  .extend({
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
    /**
     * How long a request with a well-formed key this replica does not know yet waits for it to
     * arrive on api-keys.state.v1 (a key created a moment ago) before it is refused.
     */
    KEY_ARRIVAL_WAIT_MS: milliseconds.default(1_000),
    /** The control plane's internal address: discoveries are recorded there. */
    CONTROL_PLANE_URL: z.url().default('http://127.0.0.1:8084'),
    /**
     * Most players each replica keeps (least recently used dropped first); a player kept costs no
     * query until the month changes; changes to it arrive by notification.
     */
    PLAYER_CACHE_MAX_ENTRIES: z.coerce.number().int().min(0).default(500_000),
    /**
     * An event idempotency key still `pending` after this long belongs to a request that failed or
     * died before the broker acknowledged: a retry produces its record again with the same eventId.
     * Longer than the producer's request timeout, so a send still in flight is not doubled.
     */
    IDEMPOTENCY_PENDING_TIMEOUT_MS: milliseconds.default(35_000),
    /** How long event idempotency keys are kept: as long as the topic keeps events (7 days). */
    IDEMPOTENCY_KEY_RETENTION_MS: milliseconds.default(7 * 24 * 60 * 60 * 1000),
    /** Items of recent event batches the live debugger keeps per environment (0: it records nothing). */
    RECENT_EVENTS_MAX_ITEMS: z.coerce.number().int().min(0).max(1_000).default(300),
    /** How long accepted items are recorded too after the debugger last asked for them. */
    RECENT_EVENTS_WATCH_TTL_MS: milliseconds.min(1_000).default(60_000),
    /** The debugger's Redis calls in flight per replica at most: beyond, batches are not recorded. */
    RECENT_EVENTS_MAX_PENDING_CALLS: z.coerce.number().int().min(1).default(64),
  })
  .transform(withKafkaSecurity);

export type GatewayEnv = z.infer<typeof gatewayEnv>;
