import { setFlagsFromString } from 'node:v8';

/**
 * When V8 starts marking the old generation, in percent of the way from the heap's size after the
 * last full collection to its limit (0: V8's own rule).
 *
 * V8's own rule starts marking when the room left below its old-generation or global limit falls
 * under its young generation's target size. On our services' small live heaps (about 35 MB) its
 * task found that true right after every full collection (with 72 of 105 MB free: which term tripped
 * was not pinned down), so V8 ran one every 150–300 ms whatever the load: at 250 ledger
 * operations a second, four to five a second, each with 5–10 ms of pauses and about 100 ms of
 * concurrent marking on helper threads, which take the cores Postgres, Kafka and the clients need.
 * Starting at 80 % (finishing at the latest at 95 %) runs one a second there and cut the ledger's
 * CPU per operation by a sixth to nearly a half (docs/operating.md, "Garbage collection").
 */
export function tuneGarbageCollector(markingStartPercent: number): void {
  if (markingStartPercent <= 0) return;
  // Read by V8 on every check, so they apply although the heap is already set up.
  setFlagsFromString(`--incremental-marking-soft-trigger=${markingStartPercent}`);
  setFlagsFromString(`--incremental-marking-hard-trigger=${Math.max(markingStartPercent, 95)}`);
}
