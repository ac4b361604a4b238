import type { StoredProgress } from '../store/progress.ts';

interface Cached {
  revision: string;
  stored: StoredProgress;
  bytes: number;
}

/**
 * What a cached player costs the heap, estimated: a fixed part (key, revision, the progress and its
 * maps) and a part per mission entry or streak (its times as ISO text, its objectives). Players of
 * an environment with many missions weigh more, so the budget holds fewer of them.
 */
const BYTES_PER_PLAYER = 1_200;
const BYTES_PER_ENTRY = 300;

export function estimatedBytes(stored: StoredProgress): number {
  const { missions, streaks } = stored.progress;
  let entries = 0;
  for (const _ in missions) entries++;
  for (const _ in streaks) entries++;
  return BYTES_PER_PLAYER + BYTES_PER_ENTRY * entries;
}

/**
 * Players' decoded progress by player key (`keyOf`), with the revision it was read or written at, so
 * the consumer reads in full only the players another writer moved since. The consumer takes a
 * player out (`take`) while its transaction folds the state in place and puts it back with the
 * revision it wrote; a rollback leaves the player out, to be read again.
 *
 * Bounded by an estimate of the memory it holds, in two generations that cost nothing per read:
 * players go to the young generation; once it holds half the budget, it becomes the old one and the
 * previous old one is dropped whole. A player used within the last half-budget of writes is kept.
 */
export class ProgressCache {
  private young = new Map<string, Cached>();
  private old = new Map<string, Cached>();
  private youngBytes = 0;
  private readonly generationBytes: number;

  constructor(budgetBytes: number) {
    this.generationBytes = budgetBytes / 2;
  }

  /** The revision the player's cached state was read or written at; null when not cached. */
  revisionOf(key: string): string | null {
    return (this.young.get(key) ?? this.old.get(key))?.revision ?? null;
  }

  /** The player's state if cached at `revision`, removed from the cache: the caller owns it now. */
  take(key: string, revision: string): StoredProgress | undefined {
    let hit = this.young.get(key);
    if (hit) {
      this.young.delete(key);
      this.youngBytes -= hit.bytes;
    } else {
      hit = this.old.get(key);
      this.old.delete(key);
    }
    return hit?.revision === revision ? hit.stored : undefined;
  }

  set(key: string, stored: StoredProgress, revision: string): void {
    this.take(key, revision);
    const bytes = estimatedBytes(stored);
    if (bytes > this.generationBytes) return;
    this.young.set(key, { revision, stored, bytes });
    this.youngBytes += bytes;
    if (this.youngBytes >= this.generationBytes) {
      this.old = this.young;
      this.young = new Map();
      this.youngBytes = 0;
    }
  }
}
