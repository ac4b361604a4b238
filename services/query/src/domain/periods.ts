import type { LeaderboardDefinition } from '@engage/contracts/environment/leaderboards.ts';

/** A period of a board: [start, end), end null when it never resets (a `None` board without season end). */
export interface Period {
  start: number;
  end: number | null;
}

type Timing = Pick<LeaderboardDefinition, 'period' | 'season'>;

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

/** Whether `at` (ms) lies inside the period. */
export function periodContains(period: Period, at: number): boolean {
  return period.start <= at && (period.end === null || at < period.end);
}

/** Whether `at` (ms) lies inside the board's season (no season: always). */
export function inSeason(board: Pick<LeaderboardDefinition, 'season'>, at: number): boolean {
  const start = board.season?.startsAtUtc;
  const end = board.season?.endsAtUtc;
  return (start === undefined || at >= Date.parse(start)) && (end === undefined || at < Date.parse(end));
}

/** The scheduled period containing `at`, clipped to the season. All resets are at UTC boundaries. */
export function scheduledPeriod(board: Timing, at: number): Period {
  const seasonStart = board.season?.startsAtUtc ? Date.parse(board.season.startsAtUtc) : 0;
  const seasonEnd = board.season?.endsAtUtc ? Date.parse(board.season.endsAtUtc) : null;
  let start: number;
  let end: number | null;
  const day = Math.floor(at / DAY) * DAY;
  switch (board.period.reset) {
    case 'None':
      start = seasonStart;
      end = null;
      break;
    case 'Daily':
      start = day;
      end = day + DAY;
      break;
    case 'Weekly': {
      const weekday = (new Date(day).getUTCDay() + 6) % 7; // Monday = 0
      start = day - weekday * DAY;
      end = start + 7 * DAY;
      break;
    }
    case 'Monthly': {
      const d = new Date(at);
      start = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
      end = Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
      break;
    }
    case 'Custom': {
      const every = (board.period.everyMinutes ?? 1) * MINUTE;
      const anchor = board.period.anchorUtc ? Date.parse(board.period.anchorUtc) : 0;
      start = anchor + Math.floor((at - anchor) / every) * every;
      end = start + every;
      break;
    }
  }
  return {
    start: Math.max(start, seasonStart),
    end: seasonEnd === null ? end : end === null ? seasonEnd : Math.min(end, seasonEnd),
  };
}

/**
 * The period `at` belongs to, given the newest known period that started at or before it. Known
 * periods win (a sandbox settle may have cut one short); after a cut the next period starts at the
 * cut and ends where the schedule ends it.
 */
export function periodAt(board: Timing, at: number, latestKnown: Period | undefined): Period {
  if (latestKnown && periodContains(latestKnown, at)) return latestKnown;
  const scheduled = scheduledPeriod(board, at);
  if (latestKnown?.end != null && latestKnown.end > scheduled.start && latestKnown.end <= at) {
    return { start: latestKnown.end, end: scheduled.end };
  }
  return scheduled;
}
