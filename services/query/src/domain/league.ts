import type { LeagueDefinition } from '@engage/contracts/environment/leaderboards.ts';

export type Movement = 'Promoted' | 'Relegated' | 'Stayed';

/**
 * What settling does to one row of a league group: the top `promote` of the group move up a tier,
 * the bottom `relegate` move down, nobody above the highest tier or below the lowest. Promotion wins
 * when a small group makes both apply to one row.
 */
export function leagueMovement(
  league: LeagueDefinition,
  tier: number,
  rank: number,
  groupCount: number,
): { movement: Movement; nextTier: number } {
  const rules = league.tiers[tier];
  const highest = league.tiers.length - 1;
  if (rules && tier < highest && rank <= rules.promote) return { movement: 'Promoted', nextTier: tier + 1 };
  if (rules && tier > 0 && rank > groupCount - rules.relegate)
    return { movement: 'Relegated', nextTier: tier - 1 };
  return { movement: 'Stayed', nextTier: tier };
}

/** Groups fill in order of arrival: the n-th player (0-based) to join a tier in a period is in group n / size. */
export const groupOfArrival = (arrival: number, groupSize: number) => Math.floor(arrival / groupSize);
