/**
 * One Redis sorted-set score carries the board score and, for ties, who reached it first:
 * `scaled * 2^20 + (2^20 - 1 - tick)`, where `scaled` is the score in units of 10^-decimals (negated
 * on LowestFirst boards, so the best row always has the highest sorted-set score) and `tick` is
 * when it was reached, in steps of the period's length / 2^20 (at least one second). Doubles are
 * exact up to 2^53, so |scaled| must stay below 2^32; larger scores are clamped (documented limit).
 */
export const TICK_BITS = 20;
const TICKS = 2 ** TICK_BITS;
export const MAX_SCALED = 2 ** 32 - 1;
const OPEN_ENDED_MS = 100 * 365 * 24 * 3600 * 1000;

export interface RankScoreScale {
  decimals: number;
  lowestFirst: boolean;
  periodStart: number;
  periodEnd: number | null;
}

export function tickMs(scale: Pick<RankScoreScale, 'periodStart' | 'periodEnd'>): number {
  const length = scale.periodEnd === null ? OPEN_ENDED_MS : scale.periodEnd - scale.periodStart;
  return Math.max(1_000, Math.ceil(length / TICKS));
}

export function encodeRankScore(scale: RankScoreScale, score: number, reachedAt: number): number {
  const raw = Math.round(score * 10 ** scale.decimals) * (scale.lowestFirst ? -1 : 1);
  const scaled = Math.max(-MAX_SCALED, Math.min(MAX_SCALED, raw));
  const tick = Math.max(0, Math.min(TICKS - 1, Math.floor((reachedAt - scale.periodStart) / tickMs(scale))));
  return scaled * TICKS + (TICKS - 1 - tick);
}

export function decodeRankScore(
  scale: Pick<RankScoreScale, 'decimals' | 'lowestFirst'>,
  rankScore: number,
): number {
  const scaled = Math.floor(rankScore / TICKS) * (scale.lowestFirst ? -1 : 1);
  return scaled / 10 ** scale.decimals;
}
