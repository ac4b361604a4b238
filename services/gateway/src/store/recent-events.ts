import type { RecentEvent } from '@engage/contracts/http/recent-events.ts';
import { envKey, type Redis } from '@engage/redis';
import type { RecordedItem } from '../domain/recent-event.ts';

/**
 * The recent items of each environment's event batches: one Redis stream per environment, capped
 * near `maxItems` (`XADD … MAXLEN ~`), each entry one item as JSON. Beside it a key that exists
 * while someone watches the environment's debugger (accepted items are recorded too then).
 */

/** A stream nobody writes to any more (an environment gone quiet or deleted) leaves Redis after this. */
const IDLE_STREAM_TTL_MS = 7 * 24 * 60 * 60 * 1000;

const streamKey = (prefix: string, environmentId: string) => envKey(prefix, environmentId, 'recent-events');
const watchKey = (prefix: string, environmentId: string) =>
  envKey(prefix, environmentId, 'recent-events-watched');

/** One round trip for the whole batch. */
export async function appendRecentItems(
  redis: Redis,
  prefix: string,
  environmentId: string,
  items: readonly RecordedItem[],
  maxItems: number,
): Promise<void> {
  const key = streamKey(prefix, environmentId);
  const pipeline = redis.pipeline();
  for (const item of items) pipeline.xadd(key, 'MAXLEN', '~', maxItems, '*', 'item', JSON.stringify(item));
  pipeline.pexpire(key, IDLE_STREAM_TTL_MS);
  const results = await pipeline.exec();
  const failed = results?.find(([error]) => error)?.[0];
  if (failed) throw failed;
}

/**
 * The environment's items, newest first: all of them, or those recorded after `afterId`. The
 * stream holds at most a few hundred entries, so it is read whole and filtered by the caller.
 */
export async function readRecentItems(
  redis: Redis,
  prefix: string,
  environmentId: string,
  afterId: string | undefined,
): Promise<RecentEvent[]> {
  const key = streamKey(prefix, environmentId);
  const entries = await redis.xrevrange(key, '+', afterId === undefined ? '-' : `(${afterId}`);
  return entries.flatMap(([id, fields]) => {
    const at = fields.indexOf('item');
    const text = at === -1 ? undefined : fields[at + 1];
    if (text === undefined) return [];
    return [{ id, ...(JSON.parse(text) as RecordedItem) }];
  });
}

/** Marks the environment watched for `ttlMs` from now. */
export async function markWatched(redis: Redis, prefix: string, environmentId: string, ttlMs: number) {
  await redis.set(watchKey(prefix, environmentId), '1', 'PX', ttlMs);
}

/** Milliseconds the environment stays watched (0: nobody watches). */
export async function watchedForMs(redis: Redis, prefix: string, environmentId: string): Promise<number> {
  return Math.max(0, await redis.pttl(watchKey(prefix, environmentId)));
}
