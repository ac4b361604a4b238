import { z } from 'zod';

const milliseconds = z.coerce.number().int().min(1);

/** Settings of the organization's in-flight limit (the limit itself, 16 + 8, is the contract's). */
export const organizationLimitEnv = z.object({
  /** An admitted request's lease in Redis: slots of a replica that dies are free within it. */
  ORGANIZATION_LIMIT_LEASE_MS: milliseconds.min(1_000).default(10_000),
  /**
   * How long a replica keeps the organization's slots between renewals in Redis, each of which also
   * asks whether requests wait elsewhere (0: a slot goes back when its request ends).
   */
  ORGANIZATION_LIMIT_KEEP_SLOT_MS: z.coerce.number().int().min(0).max(1_000).default(100),
  /**
   * Slots a replica takes from Redis in one call when every slot it holds is busy. Spare slots can
   * make a burst arriving elsewhere wait (or be refused) although it would have run: 1 keeps bursts exact.
   */
  ORGANIZATION_LIMIT_BLOCK_SLOTS: z.coerce.number().int().min(1).max(16).default(1),
  /** Longest a request waits for a slot before it is refused with 429. */
  ORGANIZATION_LIMIT_MAX_WAIT_MS: milliseconds.default(10_000),
  /** Requests of one organization this replica runs at once while Redis is unreachable. */
  ORGANIZATION_LIMIT_FALLBACK_IN_FLIGHT: z.coerce.number().int().min(1).max(16).default(4),
});

export type OrganizationLimitEnv = z.infer<typeof organizationLimitEnv>;
