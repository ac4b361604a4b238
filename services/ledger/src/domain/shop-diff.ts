import type { SectionItemChange } from '@engage/kit';

/** What replacing `current` with `next` changes, entry by entry, named by `section`. */
export function diff<T extends { key: string }>(
  section: string,
  current: T[],
  next: T[],
): SectionItemChange[] {
  const before = new Map(current.map((entry) => [entry.key, entry]));
  const changes: SectionItemChange[] = next.map((entry) => {
    const old = before.get(entry.key);
    if (!old) return { section, key: entry.key, change: 'created', fields: [] };
    const fields = changedFields(old, entry);
    return { section, key: entry.key, change: fields.length > 0 ? 'updated' : 'unchanged', fields };
  });
  const kept = new Set(next.map((entry) => entry.key));
  for (const entry of current) {
    if (!kept.has(entry.key)) changes.push({ section, key: entry.key, change: 'removed', fields: [] });
  }
  return changes;
}

function changedFields(before: object, after: object): string[] {
  const a = before as Record<string, unknown>;
  const b = after as Record<string, unknown>;
  const names = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...names].filter((name) => canonical(a[name]) !== canonical(b[name])).sort();
}

/** JSON with object keys sorted, so jsonb's key order does not count as a change. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(
          Object.entries(v as Record<string, unknown>).sort(([x], [y]) => x.localeCompare(y)),
        )
      : v,
  );
}
