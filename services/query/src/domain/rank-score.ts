import { roundedUnscaled } from '@engage/contracts';

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

/**
 * The tie rule every read and settlement follows (docs/leaderboards.md, Ties): the better score at
 * the board's decimals, then the earlier tick, then the player id (or team key) in descending byte
 * order, which is how Redis orders members of equal score in a reverse range.
 */
export function encodeRankScore(scale: RankScoreScale, score: number | string, reachedAt: number): number {
  const raw = scaledScore(score, scale.decimals) * (scale.lowestFirst ? -1 : 1);
  const scaled = Math.max(-MAX_SCALED, Math.min(MAX_SCALED, raw));
  return scaled * TICKS + (TICKS - 1 - tickOf(scale, reachedAt));
}

/** When a score was reached, in the period's ticks (what ties are decided on before the player id). */
export function tickOf(scale: Pick<RankScoreScale, 'periodStart' | 'periodEnd'>, reachedAt: number): number {
  return Math.max(0, Math.min(TICKS - 1, Math.floor((reachedAt - scale.periodStart) / tickMs(scale))));
}

export const LAST_TICK = TICKS - 1;

/**
 * The score in units of 10^-decimals, rounded half away from zero from its exact decimal text, as
 * Postgres's `round(numeric)` does at settlement (a double times 10^decimals would round 1.005 to 1.00).
 */
export function scaledScore(score: number | string, decimals: number): number {
  const text = typeof score === 'string' ? score : Math.abs(score) < 1e21 ? score.toFixed(8) : null;
  const rounded = text === null ? undefined : roundedUnscaled(text, decimals);
  return rounded ?? Math.sign(Number(score)) * Number.MAX_SAFE_INTEGER;
}

export function decodeRankScore(
  scale: Pick<RankScoreScale, 'decimals' | 'lowestFirst'>,
  rankScore: number,
): number {
  const scaled = Math.floor(rankScore / TICKS) * (scale.lowestFirst ? -1 : 1);
  return scaled / 10 ** scale.decimals;
}
