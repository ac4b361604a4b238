import type { Logger } from '@engage/kit';
import { environmentOf, type HttpApp, notFound, problem } from '@engage/kit';
import type { Pool } from '@engage/postgres';
import type { Redis } from '@engage/redis';
import { z } from 'zod';
import { settleNow } from '../application/settlement/settle-now.ts';
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

/** Sandbox only: settles the board's period in progress now (settleNow). Internal network, gateway headers. */
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
      const settled = await settleNow(deps, env, board);
      return {
        leaderboardKey,
        periodStartsAtUtc: new Date(settled.periodStart).toISOString(),
        periodEndsAtUtc: settled.periodEnd === null ? null : new Date(settled.periodEnd).toISOString(),
        participants: settled.participants,
      };
    },
  );
}
