import type { BoardPeriodsSchema } from '@engage/contracts/http/player-support.ts';
import type { Pool } from '@engage/postgres';
import type { z } from 'zod';
import { newestPeriods } from '../../store/periods.ts';

/** A board's newest periods with their state, for operators. */
export async function readBoardPeriods(
  pool: Pool,
  environmentId: string,
  leaderboardKey: string,
  limit: number,
): Promise<z.infer<typeof BoardPeriodsSchema>> {
  const periods = await newestPeriods(pool, { environmentId, boardKey: leaderboardKey }, limit);
  return {
    leaderboardKey,
    periods: periods.map((p) => ({
      startsAtUtc: new Date(p.start).toISOString(),
      endsAtUtc: p.end === null ? null : new Date(p.end).toISOString(),
      state: p.state === 'settled' ? ('Settled' as const) : ('Open' as const),
      participants: p.participants,
    })),
  };
}
