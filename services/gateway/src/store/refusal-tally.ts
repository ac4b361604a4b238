import type { Redis } from '@engage/redis';

/** A day's count outlives the day by one more, so yesterday's can still be read at midnight. */
const KEPT_SECONDS = 2 * 24 * 60 * 60;

const keyOf = (keyPrefix: string, organizationId: string, day: string) =>
  `${keyPrefix}organization-limit:refused:{${organizationId}}:${day}`;

/** Adds each organization's refusals to its count of the day, in one round trip. */
export async function addRefusals(
  redis: Redis,
  keyPrefix: string,
  day: string,
  counts: ReadonlyMap<string, number>,
): Promise<void> {
  const pipeline = redis.pipeline();
  for (const [organizationId, count] of counts) {
    const key = keyOf(keyPrefix, organizationId, day);
    pipeline.incrby(key, count).expire(key, KEPT_SECONDS);
  }
  const results = await pipeline.exec();
  const failed = results?.find(([err]) => err)?.[0];
  if (failed) throw failed;
}

export async function readRefusals(
  redis: Redis,
  keyPrefix: string,
  organizationId: string,
  day: string,
): Promise<number> {
  return Number((await redis.get(keyOf(keyPrefix, organizationId, day))) ?? 0);
}
