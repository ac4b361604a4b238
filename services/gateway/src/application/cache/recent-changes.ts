/**
 * The changes announced lately, so that what a request read before one of them is not kept. A mark
 * is the count of changes when a request began; `changedSince(mark, key)` says whether the key
 * changed after it. Two generations of at most `perGeneration` keys are kept; a mark older than
 * the older generation counts as changed (it may have missed a forgotten change), which costs a
 * long-running request its caching, never a stale entry.
 */
export class RecentChanges<K> {
  private count = 0;
  private recent = new Map<K, number>();
  private recentSince = 0;
  private older = new Map<K, number>();
  /** Marks below this may have missed a change no longer held. */
  private trustedSince = 0;
  private readonly perGeneration: number;

  constructor(options: { perGeneration: number }) {
    this.perGeneration = options.perGeneration;
  }

  mark(): number {
    return this.count;
  }

  add(key: K): void {
    if (this.recent.size >= this.perGeneration) {
      this.older = this.recent;
      this.trustedSince = this.recentSince;
      this.recent = new Map();
      this.recentSince = this.count;
    }
    this.count++;
    this.recent.set(key, this.count);
  }

  /** Everything changed: every mark taken so far counts as changed. */
  addEverything(): void {
    this.count++;
    this.recent.clear();
    this.older.clear();
    this.recentSince = this.count;
    this.trustedSince = this.count;
  }

  changedSince(mark: number, key: K): boolean {
    if (mark < this.trustedSince) return true;
    return (this.recent.get(key) ?? this.older.get(key) ?? 0) > mark;
  }
}
