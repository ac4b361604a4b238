import type { ActivitySoFar } from '../domain/activity.ts';
import type { StoredProgress } from '../store/progress.ts';

/**
 * A player as the consumer last committed them: their `player_counters` row's revision and activity,
 * and their decoded progress. The consumer's next write of the player is conditional on the revision
 * and events applied, so a player another writer moved since is noticed there, not by a read.
 */
export interface HeldPlayer {
  revision: string;
  eventsApplied: number;
  /** Undefined before the player's first applied event. */
  activity: ActivitySoFar | undefined;
  stored: StoredProgress;
}

interface Cached {
  held: HeldPlayer;
  /** The events topic's partition the player's events arrive on. */
  partition: number;
  bytes: number;
}

/** A player to hold, as a committed transaction left them. */
export interface CommittedPlayer {
  key: string;
  partition: number;
  held: HeldPlayer;
}

/**
 * What a cached player costs the heap, estimated: a fixed part (key, revision, activity, the
 * progress and its maps) and a part per mission entry or streak (its times as ISO text, its
 * objectives). Players of an environment with many missions weigh more, so the budget holds fewer.
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
 * The players the events consumer holds, by player key (`keyOf`), as its last committed transaction
 * left them: a batch takes its players out (`take`), folds their state in place, and the consumer
 * puts them back (`keep`) only once the transaction committed, so what is held is always what
 * Postgres holds unless another writer moved it since. A transaction that rolls back leaves its
 * players out, to be read again.
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

  /** The player as last committed, removed from the cache: the caller owns it now. */
  take(key: string): HeldPlayer | undefined {
    const young = this.young.get(key);
    if (young) {
      this.young.delete(key);
      this.youngBytes -= young.bytes;
      return young.held;
    }
    const old = this.old.get(key);
    if (old) this.old.delete(key);
    return old?.held;
  }

  /** Holds players as a transaction committed them. */
  keep(players: Iterable<CommittedPlayer>): void {
    for (const player of players) this.set(player);
  }

  /** Forgets the players of every partition but `owned` (after a rebalance). */
  retainPartitions(owned: readonly number[]): void {
    const kept = new Set(owned);
    for (const [key, cached] of this.young) {
      if (kept.has(cached.partition)) continue;
      this.young.delete(key);
      this.youngBytes -= cached.bytes;
    }
    for (const [key, cached] of this.old) if (!kept.has(cached.partition)) this.old.delete(key);
  }

  /** Players held, for metrics and tests. */
  get size(): number {
    return this.young.size + this.old.size;
  }

  private set({ key, partition, held }: CommittedPlayer): void {
    this.take(key);
    const bytes = estimatedBytes(held.stored);
    if (bytes > this.generationBytes) return;
    this.young.set(key, { held, partition, bytes });
    this.youngBytes += bytes;
    if (this.youngBytes >= this.generationBytes) {
      this.old = this.young;
      this.young = new Map();
      this.youngBytes = 0;
    }
  }
}
