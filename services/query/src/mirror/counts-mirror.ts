import type { Logger } from '@engage/kit';
import type { Pool } from '@engage/postgres';
import type { Redis } from '@engage/redis';
import { type CountRow, environmentCounts, markMirrored } from '../store/totals.ts';
import { eventCountBoardKey, mirrorMarkerKey } from './keys.ts';

export interface MirrorDeps {
  pool: Pool;
  redis: Redis;
  keyPrefix: string;
  log: Logger;
}

const REBUILD_PAGE = 1_000;

/**
 * Writes committed counts into the environment's sorted sets (one per event key, member = player id).
 * Scores are the absolute committed counts with ZADD GT: counts only grow, so a replay, a late
 * writer or a concurrent rebuild can never lower or double a score. Rows then leave the pending state.
 */
export async function mirrorCounts(deps: MirrorDeps, rows: CountRow[]): Promise<void> {
  if (rows.length === 0) return;
  for (const environmentId of new Set(rows.map((r) => r.environmentId))) {
    await ensureEnvironmentMirrored(deps, environmentId);
  }
  await zaddGreater(deps, rows);
  await markMirrored(deps.pool, rows);
}

/**
 * Rebuilds an environment's boards from Postgres when its marker is missing (Redis lost its data, or
 * the environment is new), then sets the marker. Returns whether a rebuild ran.
 */
export async function ensureEnvironmentMirrored(deps: MirrorDeps, environmentId: string): Promise<boolean> {
  const marker = mirrorMarkerKey(deps.keyPrefix, environmentId);
  if ((await deps.redis.exists(marker)) === 1) return false;
  let rebuilt = 0;
  let after: CountRow | undefined;
  for (;;) {
    const page = await environmentCounts(deps.pool, environmentId, after, REBUILD_PAGE);
    await zaddGreater(deps, page);
    rebuilt += page.length;
    after = page.at(-1);
    if (page.length < REBUILD_PAGE) break;
  }
  await deps.redis.set(marker, new Date().toISOString());
  if (rebuilt > 0)
    deps.log.info({ environmentId, rows: rebuilt }, 'rebuilt event-count boards from Postgres');
  return true;
}

async function zaddGreater(deps: MirrorDeps, rows: CountRow[]): Promise<void> {
  if (rows.length === 0) return;
  const pipeline = deps.redis.pipeline();
  for (const row of rows) {
    pipeline.zadd(
      eventCountBoardKey(deps.keyPrefix, row.environmentId, row.eventKey),
      'GT',
      row.eventsCounted,
      row.playerId,
    );
  }
  const results = (await pipeline.exec()) ?? [];
  const failed = results.find(([err]) => err);
  if (failed) throw failed[0];
}
