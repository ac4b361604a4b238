import { setFlagsFromString } from 'node:v8';

/**
 * When V8 starts marking the old generation, in percent of the way from the heap's size after the
 * last full collection to its limit (0: V8's own rule).
 *
 * V8's own rule starts marking when the room left below its old-generation or global limit falls
 * under its young generation's target size. On our services' small live heaps that is true right
 * after every full collection, so V8 runs full collections several times a second whatever the
 * load, each with pauses and concurrent marking on helper threads, which take the cores Postgres,
 * Kafka and the clients need. Starting at a fixed share of the way to the limit (finishing at the
 * latest at 95 %) ends that (docs/operating.md, "Garbage collection").
 */
export function tuneGarbageCollector(markingStartPercent: number): void {
  // Read by V8 on every check, so they apply although the heap is already set up.
  for (const flag of markingTriggerFlags(markingStartPercent)) setFlagsFromString(flag);
}

/** The V8 flags `tuneGarbageCollector` sets: none at 0. */
export function markingTriggerFlags(markingStartPercent: number): string[] {
  if (markingStartPercent <= 0) return [];
  return [
    `--incremental-marking-soft-trigger=${markingStartPercent}`,
    `--incremental-marking-hard-trigger=${Math.max(markingStartPercent, 95)}`,
  ];
}
