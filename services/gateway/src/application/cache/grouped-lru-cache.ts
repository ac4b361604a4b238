/**
 * A cache of entries in groups (players by environment) with one size cap over all groups, without
 * expiry: its owner removes what changes. A lookup is two Map reads on the keys as they come, where
 * one combined key would build (and hash) a new string per lookup. A hit moves the entry to the end
 * of its group (Maps keep insertion order), so the entry dropped for room is the group's least
 * recently used.
 */
export class GroupedLruCache<G, K, V> {
  private readonly groups = new Map<G, Map<K, V>>();
  private size = 0;
  private readonly maxEntries: number;

  constructor(options: { maxEntries: number }) {
    this.maxEntries = options.maxEntries;
  }

  /** A reader of one group's entries (for the work of one request). */
  groupView(group: G): (key: K) => V | undefined {
    const entries = this.groups.get(group);
    if (!entries) return () => undefined;
    return (key) => {
      const value = entries.get(key);
      if (value === undefined) return undefined;
      entries.delete(key);
      entries.set(key, value);
      return value;
    };
  }

  get(group: G, key: K): V | undefined {
    return this.groupView(group)(key);
  }

  set(group: G, key: K, value: V): void {
    if (this.maxEntries <= 0) return;
    let entries = this.groups.get(group);
    if (!entries) {
      entries = new Map();
      this.groups.set(group, entries);
    }
    if (entries.has(key)) {
      entries.delete(key);
    } else {
      if (this.size >= this.maxEntries) this.dropOldest(entries);
      this.size++;
    }
    entries.set(key, value);
  }

  delete(group: G, key: K): void {
    const entries = this.groups.get(group);
    if (entries?.delete(key)) this.size--;
  }

  clear(): void {
    this.groups.clear();
    this.size = 0;
  }

  /** Drops the least recently used entry of `preferred`, or of the oldest group. */
  private dropOldest(preferred: Map<K, V>): void {
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

  private dropFirst(entries: Map<K, V>): void {
    const first = entries.keys().next();
    if (first.done) return;
    entries.delete(first.value);
    this.size--;
  }
}
