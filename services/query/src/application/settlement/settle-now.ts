import type { EnvironmentContext } from '@engage/contracts';
import type { LeaderboardDefinition } from '@engage/contracts/environment/leaderboards.ts';
import { withTransaction } from '@engage/postgres';
import { claimCurrentPeriod, storedPeriod } from '../../store/periods.ts';
import { currentPeriod, forgetPeriods } from '../reading/current-period.ts';
import { type SettledPeriod, settleClaimedPeriod } from './settle-period.ts';
import { afterSettled, type SettlerDeps } from './settler.ts';

/**
 * Sandbox only (an admin action for testing): settles the board's period in progress now, exactly as
 * the end of the period would, and starts the next one.
 *
 * The period is the one in progress when the request arrived. Concurrent settles of one board all
 * aim at it; the first to claim it settles it, the others wait for that commit and answer its result
 * (read back from the period's row), so a burst of settles closes one period and every caller sees the same answer.
 */
export async function settleNow(
  deps: SettlerDeps,
  env: EnvironmentContext,
  board: LeaderboardDefinition,
): Promise<SettledPeriod> {
  const requestedAt = Date.now();
  forgetPeriods(env.environmentId, board.key);
  const period = await currentPeriod(deps.pool, board, env.environmentId, requestedAt);
  const ref = { environmentId: env.environmentId, boardKey: board.key, periodStart: period.start };
  const settled = await withTransaction(deps.pool, async (client) => {
    const claimed = await claimCurrentPeriod(client, {
      environmentId: env.environmentId,
      boardKey: board.key,
      start: period.start,
      end: period.end,
      organizationId: env.organizationId,
    });
    if (claimed) return settleClaimedPeriod(client, claimed, deps.topicPrefix);
    return undefined;
  });
  forgetPeriods(env.environmentId, board.key);
  if (settled) {
    await afterSettled(deps, settled);
    return settled;
  }
  // Read after the concurrent settle committed (the claim waited for it).
  const closed = await storedPeriod(deps.pool, ref);
  if (closed?.state !== 'settled')
    throw new Error('a period claimed for settling is neither open nor settled');
  return {
    ...ref,
    periodEnd: closed.end,
    participants: closed.participants ?? 0,
    groups: [],
  };
}
