import { z } from 'zod';
import { parseRetryDelays } from './domain/retry.ts';

const flag = z.enum(['true', 'false']).transform((value) => value === 'true');
const milliseconds = z.coerce.number().int();

/** The webhook settings of the gateway's environment. */
export const webhooksEnv = z.object({
  /** false: no deliveries are queued or sent by this replica (the admin routes still answer). */
  WEBHOOKS_ENABLED: flag.default(true),
  /** true: plain http URLs to a loopback host are accepted (development and tests only). */
  WEBHOOK_ALLOW_INSECURE_URLS: flag.default(false),
  /**
   * true: receivers may be on loopback or private networks (a self-hosted deployment sending to its
   * own services). false: a connection to such an address is refused, so an organization's admin
   * cannot reach the internal network. WEBHOOK_ALLOW_INSECURE_URLS=true implies true.
   */
  WEBHOOK_ALLOW_PRIVATE_ADDRESSES: flag.default(false),
  /**
   * Waits after each failed attempt, comma-separated milliseconds; a delivery gets one attempt more
   * than delays. The default spans about 27.6 hours: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h.
   */
  WEBHOOK_RETRY_DELAYS_MS: z
    .string()
    .default('5000,300000,1800000,7200000,18000000,36000000,36000000')
    .transform((text, ctx) => {
      try {
        return parseRetryDelays(text);
      } catch (err) {
        ctx.addIssue({ code: 'custom', message: (err as Error).message });
        return z.NEVER;
      }
    }),
  /** An attempt not answered within this fails. */
  WEBHOOK_TIMEOUT_MS: milliseconds.min(100).max(60_000).default(10_000),
  /** How often each replica looks for due deliveries besides being woken by a new one. */
  WEBHOOK_POLL_INTERVAL_MS: milliseconds.min(10).default(1_000),
  /** Deliveries one replica sends at the same time at most. */
  WEBHOOK_CONCURRENCY: z.coerce.number().int().min(1).max(1_000).default(16),
  /** Of those, the most one organization's deliveries hold: its slow receivers cannot hold them all. */
  WEBHOOK_CONCURRENCY_PER_ORGANIZATION: z.coerce.number().int().min(1).max(1_000).default(8),
  /** Of those, the most one endpoint's deliveries hold. */
  WEBHOOK_CONCURRENCY_PER_ENDPOINT: z.coerce.number().int().min(1).max(1_000).default(4),
  /** Endpoints one environment may have (creating one more is refused with webhook.too_many_endpoints). */
  WEBHOOK_MAX_ENDPOINTS_PER_ENVIRONMENT: z.coerce.number().int().min(1).max(1_000).default(20),
  /** Delivered and failed deliveries are deleted this long after they were created (30 days). */
  WEBHOOK_DELIVERY_RETENTION_MS: milliseconds.min(60_000).default(30 * 24 * 60 * 60 * 1000),
});
export type WebhooksEnv = z.infer<typeof webhooksEnv>;
