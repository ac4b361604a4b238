import { z } from 'zod';

const milliseconds = z.coerce.number().int().min(1);

/** Settings of the organization's in-flight limit (the limit itself, 16 + 8, is the contract's). */
export const organizationLimitEnv = z.object({
  /** An admitted request's lease in Redis: slots of a replica that dies are free within it. */
  ORGANIZATION_LIMIT_LEASE_MS: milliseconds.min(1_000).default(10_000),
  /**
   * How often a replica keeping an organization's slots for its next requests asks Redis whether a
   * request of it waits on any replica, at most half the lease (0: keep no slot).
   */
  ORGANIZATION_LIMIT_KEEP_SLOT_MS: z.coerce.number().int().min(0).max(60_000).default(100),
  /** Longest a request waits for a slot before it is refused with 429. */
  ORGANIZATION_LIMIT_MAX_WAIT_MS: milliseconds.default(10_000),
  /** Requests of one organization this replica runs at once while Redis is unreachable. */
  ORGANIZATION_LIMIT_FALLBACK_IN_FLIGHT: z.coerce.number().int().min(1).max(16).default(4),
});

export type OrganizationLimitEnv = z.infer<typeof organizationLimitEnv>;
