import type { Logger } from '@engage/kit';
import { environmentOf, type HttpApp, notFound, problem } from '@engage/kit';
import { type Pool, withTransaction } from '@engage/postgres';
import type { Redis } from '@engage/redis';
import { z } from 'zod';
import { currentPeriod, forgetPeriods } from '../boards/reader.ts';
import { claimCurrentPeriod, settleClaimedPeriod } from '../settlement/settle.ts';
import { afterSettled } from '../settlement/settler.ts';
import type { Definitions } from '../store/definitions.ts';

const SettleParamsSchema = z.object({ environmentId: z.uuid(), leaderboardKey: z.string().min(1) });

export interface SettleDeps {
  pool: Pool;
  redis: Redis;
  keyPrefix: string;
  topicPrefix: string;
  log: Logger;
  definitions: Definitions;
  published: () => void;
}

/**
 * Sandbox only (an admin action for testing): settles the board's period in progress now, exactly as
 * the end of the period would, and starts the next one. Internal network, gateway headers.
 */
export function settleRoutes(app: HttpApp, deps: SettleDeps): void {
  app.post(
    '/internal/v1/environments/:environmentId/leaderboards/:leaderboardKey/settle',
    { schema: { params: SettleParamsSchema } },
    async (request) => {
      const env = environmentOf(request);
      const { leaderboardKey } = request.params;
      if (env.environmentKind !== 'Sandbox') {
        throw problem('leaderboard.settle_sandbox_only', 'Only Sandbox environments settle on demand.');
      }
      const board = await deps.definitions.board(env.environmentId, leaderboardKey);
      if (!board) throw notFound('leaderboard.not_found', `No leaderboard '${leaderboardKey}'.`);
      forgetPeriods(env.environmentId, leaderboardKey);
      const period = await currentPeriod(deps.pool, board, env.environmentId, Date.now());
      const settled = await withTransaction(deps.pool, async (client) => {
        const claimed = await claimCurrentPeriod(client, {
          environmentId: env.environmentId,
          boardKey: leaderboardKey,
          start: period.start,
          end: period.end,
          organizationId: env.organizationId,
        });
        return settleClaimedPeriod(client, claimed, deps.topicPrefix);
      });
      forgetPeriods(env.environmentId, leaderboardKey);
      await afterSettled(deps, settled);
      return {
        leaderboardKey,
        periodStartsAtUtc: new Date(settled.periodStart).toISOString(),
        periodEndsAtUtc: settled.periodEnd === null ? null : new Date(settled.periodEnd).toISOString(),
        participants: settled.participants,
      };
    },
  );
}
