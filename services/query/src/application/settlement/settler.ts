import type { Logger } from '@engage/kit';
import { createSleeper } from '@engage/kit';
import { type Pool, withTransaction } from '@engage/postgres';
import type { Redis } from '@engage/redis';
import { claimDuePeriod } from '../../store/periods.ts';
import { deletePeriodBoards } from '../../store/redis/live-boards.ts';
import { type SettledPeriod, settleClaimedPeriod } from './settle-period.ts';

export interface SettlerDeps {
  pool: Pool;
  redis: Redis;
  keyPrefix: string;
  topicPrefix: string;
  log: Logger;
  /** Publish the analysts' records soon (the outbox relay's kick). */
  published: () => void;
  /** Test hook: runs inside the settlement transaction, before its commit. */
  beforeCommit?: (settled: SettledPeriod) => Promise<void>;
}

/**
 * Settles every period that ended at least `graceMs` ago, one transaction each. Any number of query
 * replicas may run this at once: each period row is claimed with FOR UPDATE SKIP LOCKED, so exactly
 * one settles it, and a crash before the commit leaves it open for the next pass.
 */
export async function settleDuePeriods(
  deps: SettlerDeps,
  graceMs: number,
  /** Only this environment's periods (tests and operators). */
  environmentId?: string,
): Promise<SettledPeriod[]> {
  const settled: SettledPeriod[] = [];
  for (;;) {
    const done = await withTransaction(deps.pool, async (client) => {
      const claimed = await claimDuePeriod(client, graceMs, environmentId);
      if (!claimed) return undefined;
      const result = await settleClaimedPeriod(client, claimed, deps.topicPrefix);
      await deps.beforeCommit?.(result);
      return result;
    });
    if (!done) return settled;
    await afterSettled(deps, done);
    settled.push(done);
  }
}

/** After the commit: the period's live keys go (Previous reads come from Postgres). */
export async function afterSettled(
  deps: Omit<SettlerDeps, 'pool' | 'topicPrefix'>,
  settled: SettledPeriod,
): Promise<void> {
  deps.published();
  deps.log.info(
    {
      environmentId: settled.environmentId,
      leaderboardKey: settled.boardKey,
      participants: settled.participants,
    },
    'leaderboard period settled',
  );
  try {
    await deletePeriodBoards(deps.redis, deps.keyPrefix, settled);
  } catch (err) {
    deps.log.warn({ err }, 'could not delete a settled period from Redis; it is ignored there');
  }
}

export function startSettler(deps: SettlerDeps, options: { intervalMs: number; graceMs: number }) {
  let running = true;
  const sleeper = createSleeper();
  const loop = (async () => {
    while (running) {
      try {
        await settleDuePeriods(deps, options.graceMs);
      } catch (err) {
        deps.log.warn({ err }, 'settling leaderboards failed; will retry');
      }
      await sleeper.sleep(options.intervalMs);
    }
  })();
  return {
    stop: async () => {
      running = false;
      sleeper.wake();
      await loop;
    },
  };
}
