import type { EnvironmentContext } from '@engage/contracts';
import type { LeaderboardDefinition } from '@engage/contracts/environment/leaderboards.ts';
import { withTransaction } from '@engage/postgres';
import { claimCurrentPeriod } from '../../store/periods.ts';
import { currentPeriod, forgetPeriods } from '../reading/current-period.ts';
import { type SettledPeriod, settleClaimedPeriod } from './settle-period.ts';
import { afterSettled, type SettlerDeps } from './settler.ts';

/**
 * Sandbox only (an admin action for testing): settles the board's period in progress now, exactly as
 * the end of the period would, and starts the next one.
 */
export async function settleNow(
  deps: SettlerDeps,
  env: EnvironmentContext,
  board: LeaderboardDefinition,
): Promise<SettledPeriod> {
  forgetPeriods(env.environmentId, board.key);
  const period = await currentPeriod(deps.pool, board, env.environmentId, Date.now());
  const settled = await withTransaction(deps.pool, async (client) => {
    const claimed = await claimCurrentPeriod(client, {
      environmentId: env.environmentId,
      boardKey: board.key,
      start: period.start,
      end: period.end,
      organizationId: env.organizationId,
    });
    return settleClaimedPeriod(client, claimed, deps.topicPrefix);
  });
  forgetPeriods(env.environmentId, board.key);
  await afterSettled(deps, settled);
  return settled;
}
