/**
 * Formats epoch ms as ISO text for a statement's timestamptz array, remembering the last value: the
 * rows of one batch mostly share their period start, and events of one gateway batch their receipt
 * time, so most rows cost no formatting. One formatter per column (interleaved columns would thrash).
 */
export function isoFormatter(): (ms: number) => string {
  let lastMs = Number.NaN;
  let lastIso = '';
  return (ms) => {
    if (ms !== lastMs) {
      lastMs = ms;
      lastIso = new Date(ms).toISOString();
    }
    return lastIso;
  };
}
