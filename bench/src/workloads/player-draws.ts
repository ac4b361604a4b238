/** How a row picks the player of each request. */
export type Distribution = 'hot' | 'zipf' | 'uniform';

export const DISTRIBUTIONS: readonly Distribution[] = ['hot', 'zipf', 'uniform'];

/** The exponent of the Zipf draw: the k-th most active player is drawn in proportion to 1/k. */
const ZIPF_EXPONENT = 1;

/** The id of the i-th seeded player. */
export const playerId = (i: number) => `player-${i}`;

/**
 * Draws player indexes below `players`: always the first (hot), by rank with Zipf weights (the
 * first the most often), or uniformly.
 */
export function playerDraw(distribution: Distribution, players: number): () => number {
  if (distribution === 'hot') return () => 0;
  if (distribution === 'uniform') return () => Math.floor(Math.random() * players);
  const cumulative = new Float64Array(players);
  let total = 0;
  for (let k = 0; k < players; k++) {
    total += 1 / (k + 1) ** ZIPF_EXPONENT;
    cumulative[k] = total;
  }
  return () => {
    const target = Math.random() * total;
    let low = 0;
    let high = players - 1;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (cumulative[mid]! < target) low = mid + 1;
      else high = mid;
    }
    return low;
  };
}
