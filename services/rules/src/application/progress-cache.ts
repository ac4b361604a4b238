import type { StoredProgress } from '../store/progress.ts';

interface Cached {
  revision: string;
  stored: StoredProgress;
}

/**
 * Players' decoded progress by player key (`keyOf`), with the revision it was read or written at, so
 * the consumer reads in full only the players another writer moved since. The consumer takes a
 * player out (`take`) while its transaction folds the state in place and puts it back with the
 * revision it wrote; a rollback leaves the player out, to be read again.
 *
 * Two generations keep it bounded without any bookkeeping per read: entries go to the young
 * generation; once it holds half the capacity, it becomes the old one and the previous old one is
 * dropped whole. A player used within the last half-capacity of writes is always kept.
 */
export class ProgressCache {
  private young = new Map<string, Cached>();
  private old = new Map<string, Cached>();
  private readonly generationSize: number;

  constructor(capacity: number) {
    this.generationSize = Math.max(1, Math.floor(capacity / 2));
  }

  /** The revision the player's cached state was read or written at; null when not cached. */
  revisionOf(key: string): string | null {
    return (this.young.get(key) ?? this.old.get(key))?.revision ?? null;
  }

  /** The player's state if cached at `revision`, removed from the cache: the caller owns it now. */
  take(key: string, revision: string): StoredProgress | undefined {
    const hit = this.young.get(key) ?? this.old.get(key);
    this.young.delete(key);
    this.old.delete(key);
    return hit?.revision === revision ? hit.stored : undefined;
  }

  set(key: string, stored: StoredProgress, revision: string): void {
    this.old.delete(key);
    this.young.set(key, { revision, stored });
    if (this.young.size >= this.generationSize) {
      this.old = this.young;
      this.young = new Map();
    }
  }
}
