import type { LeaderboardDefinition } from '@engage/contracts/environment/leaderboards.ts';
import type { Pool } from '@engage/postgres';
import { type Period, periodAt } from '../../domain/periods.ts';
import { latestPeriodBefore } from '../../store/periods.ts';

const PERIOD_CACHE_MS = 1_000;
const periodCache = new Map<string, { at: number; period: Promise<Period | undefined> }>();

/** The newest stored period of a board (cached briefly: it changes when a period starts or is cut). */
function latestStoredPeriod(pool: Pool, environmentId: string, boardKey: string, now: number) {
  const key = `${environmentId}\u0000${boardKey}`;
  const cached = periodCache.get(key);
  if (cached && now - cached.at < PERIOD_CACHE_MS) return cached.period;
  const period = latestPeriodBefore(pool, { environmentId, boardKey }, now);
  period.catch(() => periodCache.delete(key));
  periodCache.set(key, { at: now, period });
  if (periodCache.size > 10_000) periodCache.clear();
  return period;
}

export function forgetPeriods(environmentId: string, boardKey: string): void {
  periodCache.delete(`${environmentId}\u0000${boardKey}`);
}

/** The period in progress now (a cut by a sandbox settle starts the next one early). */
export async function currentPeriod(
  pool: Pool,
  board: LeaderboardDefinition,
  environmentId: string,
  now: number,
) {
  const latest = await latestStoredPeriod(pool, environmentId, board.key, now);
  return periodAt(board, now, latest);
}
