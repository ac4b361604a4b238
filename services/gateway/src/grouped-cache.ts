/**
 * A time-bounded cache of entries in groups (players by environment), with one size cap over all
 * groups. A lookup is two Map reads on the keys as they come, where one combined key would build
 * (and hash) a new string per lookup; a batch reads all its entries through one group's view,
 * against one clock reading.
 */
export class GroupedTtlCache<G, K, V> {
  private readonly groups = new Map<G, Map<K, { value: V; expiresAt: number }>>();
  private size = 0;
  private readonly ttlMs: number;
  private readonly maxEntries: number;

  constructor(options: { ttlMs: number; maxEntries: number }) {
    this.ttlMs = options.ttlMs;
    this.maxEntries = options.maxEntries;
  }

  /** A reader of one group's entries as they stand now (for the work of one request). */
  groupView(group: G): (key: K) => V | undefined {
    const entries = this.groups.get(group);
    if (!entries) return () => undefined;
    const now = Date.now();
    return (key) => {
      const entry = entries.get(key);
      return entry && entry.expiresAt > now ? entry.value : undefined;
    };
  }

  set(group: G, key: K, value: V): void {
    if (this.ttlMs <= 0) return;
    let entries = this.groups.get(group);
    if (!entries) {
      entries = new Map();
      this.groups.set(group, entries);
    }
    if (!entries.has(key)) {
      if (this.size >= this.maxEntries) this.dropOldest(entries);
      this.size++;
    }
    entries.set(key, { value, expiresAt: Date.now() + this.ttlMs });
  }

  /** Drops the oldest entry of `preferred` (Maps keep insertion order), or of the oldest group. */
  private dropOldest(preferred: Map<K, unknown>): void {
    if (preferred.size > 0) {
      this.dropFirst(preferred);
      return;
    }
    const oldest = this.groups.entries().next();
    if (oldest.done) return;
    const [group, entries] = oldest.value;
    this.dropFirst(entries);
    if (entries.size === 0 && entries !== preferred) this.groups.delete(group);
  }

  private dropFirst(entries: Map<K, unknown>): void {
    const first = entries.keys().next();
    if (first.done) return;
    entries.delete(first.value);
    this.size--;
  }
}
