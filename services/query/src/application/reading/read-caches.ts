import {
  type NameSource,
  readNames,
  readTop,
  type TopSnapshot,
  type TopSource,
} from '../../store/redis/live-read.ts';

/** Entries each cache keeps at most. */
const MAX_ENTRIES = 100_000;

/**
 * Values under (namespace, key), at most `max` of them, in two generations: when the newer one is
 * full, or older than half of `maxAgeMs`, the older one is dropped whole, so nothing is served older
 * than `maxAgeMs`. No per-entry bookkeeping: no timestamp per entry, and no one-at-a-time eviction
 * (deleting a Map's oldest entries leaves holes its iterator walks over again on every eviction).
 * Two levels, so a lookup hashes the short key, not a namespace-and-key string built per lookup.
 */
export class Generations<V> {
  private current = new Map<string, Map<string, V>>();
  private previous = new Map<string, Map<string, V>>();
  private currentSize = 0;
  // Both start "long ago": the first call starts the first real generation.
  private startedAt = Number.NEGATIVE_INFINITY;
  private previousStartedAt = Number.NEGATIVE_INFINITY;
  private readonly half: number;
  private readonly halfAgeMs: number;

  constructor(max: number, maxAgeMs = Number.POSITIVE_INFINITY) {
    this.half = Math.max(1, Math.floor(max / 2));
    this.halfAgeMs = maxAgeMs / 2;
  }

  get(namespace: string, key: string, now: number): V | undefined {
    this.age(now);
    return this.current.get(namespace)?.get(key) ?? this.previous.get(namespace)?.get(key);
  }

  set(namespace: string, key: string, value: V, now: number): void {
    this.age(now);
    if (this.currentSize >= this.half) this.rotate(now);
    let entries = this.current.get(namespace);
    if (!entries) {
      entries = new Map();
      this.current.set(namespace, entries);
    }
    const size = entries.size;
    entries.set(key, value);
    this.currentSize += entries.size - size;
  }

  delete(namespace: string, key: string): void {
    this.current.get(namespace)?.delete(key);
    this.previous.get(namespace)?.delete(key);
  }

  private age(now: number): void {
    if (now - this.startedAt >= this.halfAgeMs) this.rotate(now);
    if (now - this.previousStartedAt >= 2 * this.halfAgeMs) this.previous = new Map();
  }

  /** Every entry of a generation was set at or after its start. */
  private rotate(now: number): void {
    this.previous = this.current;
    this.previousStartedAt = this.startedAt;
    this.current = new Map();
    this.currentSize = 0;
    this.startedAt = now;
  }
}

/**
 * A live board's size and top rows, served from memory for `ttlMs` after they were asked of Redis:
 * every read of a board screen asks the same rows, so a replica asks Redis for them at most once
 * per `ttlMs` per board and Top (concurrent reads share one request). What a read shows of them is
 * therefore at most `ttlMs` old; the caller's place, neighbours and named players are always read.
 */
export class TopCache {
  private readonly entries = new Generations<{ at: number; snapshot: Promise<TopSnapshot> }>(MAX_ENTRIES);
  private readonly ttlMs: number;

  constructor(ttlMs: number) {
    this.ttlMs = ttlMs;
  }

  readonly source: TopSource = (redis, boardKey, top) => {
    if (this.ttlMs === 0) return readTop(redis, boardKey, top);
    const key = String(top);
    const now = performance.now();
    const cached = this.entries.get(boardKey, key, now);
    if (cached && now - cached.at < this.ttlMs) return cached.snapshot;
    const snapshot = readTop(redis, boardKey, top);
    snapshot.catch(() => this.entries.delete(boardKey, key));
    this.entries.set(boardKey, key, { at: now, snapshot }, now);
    return snapshot;
  };
}

/**
 * Display names read from Redis, served from memory for `ttlMs`: a renamed player shows the new
 * name on other replicas at most `ttlMs` later. A player without a name is asked again every time
 * (a name that appears is shown at once).
 */
export class NameCache {
  private readonly entries: Generations<string>;
  private readonly ttlMs: number;

  constructor(ttlMs: number) {
    this.ttlMs = ttlMs;
    this.entries = new Generations(MAX_ENTRIES, ttlMs);
  }

  readonly source: NameSource = async (redis, namesKey, members) => {
    if (this.ttlMs === 0) return readNames(redis, namesKey, members);
    const now = performance.now();
    const names: (string | null)[] = new Array(members.length).fill(null);
    const missing: string[] = [];
    const missingAt: number[] = [];
    members.forEach((member, i) => {
      const cached = this.entries.get(namesKey, member, now);
      if (cached !== undefined) names[i] = cached;
      else {
        missing.push(member);
        missingAt.push(i);
      }
    });
    if (missing.length === 0) return names;
    const found = await readNames(redis, namesKey, missing);
    found.forEach((name, j) => {
      names[missingAt[j]!] = name;
      if (name !== null) this.remember(namesKey, missing[j]!, name, now);
    });
    return names;
  };

  /** A name this process just wrote: its own reads show it at once. */
  remember(namesKey: string, member: string, name: string, now = performance.now()): void {
    if (this.ttlMs > 0) this.entries.set(namesKey, member, name, now);
  }
}
