import type { SectionItemChange } from '@engage/kit';

export type RulesSection = 'missions' | 'missionCollections' | 'streaks';

/** An item as stored: its feed position and definition. */
export interface StoredItem {
  key: string;
  position: number;
  definition: unknown;
}

/** What applying a whole section changes: the report, the items to write and the keys to remove. */
export interface SectionChanges {
  changes: SectionItemChange[];
  writes: StoredItem[];
  removed: string[];
}

/**
 * The changes that replace a section's stored items with `items` (in feed order): items absent from
 * `items` are removed, the others created or updated (their feed position included).
 */
export function sectionChanges(
  section: RulesSection,
  stored: readonly StoredItem[],
  items: readonly { key: string }[],
): SectionChanges {
  const byKey = new Map(stored.map((r) => [r.key, r]));
  const changes: SectionItemChange[] = [];
  const writes: StoredItem[] = [];
  items.forEach((item, position) => {
    const before = byKey.get(item.key);
    if (!before) {
      changes.push({ section, key: item.key, change: 'created', fields: [] });
      writes.push({ key: item.key, position, definition: item });
      return;
    }
    const fields = changedFields(
      before.definition as Record<string, unknown>,
      item as Record<string, unknown>,
    );
    if (before.position !== position) fields.push('position');
    changes.push({ section, key: item.key, change: fields.length ? 'updated' : 'unchanged', fields });
    if (fields.length) writes.push({ key: item.key, position, definition: item });
  });
  const wanted = new Set(items.map((i) => i.key));
  const removed = stored.filter((r) => !wanted.has(r.key)).map((r) => r.key);
  for (const key of removed) changes.push({ section, key, change: 'removed', fields: [] });
  return { changes, writes, removed };
}

function changedFields(before: Record<string, unknown>, after: Record<string, unknown>): string[] {
  const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...keys].filter((k) => !sameJson(before[k], after[k])).sort();
}

/** Deep equality of JSON values, ignoring the order of object keys (jsonb does not keep it). */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((v, i) => sameJson(v, b[i]));
  }
  const ka = Object.keys(a).filter((k) => (a as Record<string, unknown>)[k] !== undefined);
  const kb = Object.keys(b).filter((k) => (b as Record<string, unknown>)[k] !== undefined);
  return (
    ka.length === kb.length &&
    ka.every((k) => sameJson((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]))
  );
}
