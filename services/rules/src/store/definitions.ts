import type {
  MissionCollectionDefinition,
  MissionDefinition,
} from '@engage/contracts/environment/missions.ts';
import type { StreakDefinition } from '@engage/contracts/environment/streaks.ts';
import type { SectionItemChange } from '@engage/kit';
import type { Pool, PoolClient } from '@engage/postgres';
import { type EnvironmentRules, indexRules, NO_RULES } from '../domain/definitions.ts';
import { derivedUuid } from '../domain/ids.ts';

export type RulesSection = 'missions' | 'missionCollections' | 'streaks';
type Queryable = Pool | PoolClient;

interface DefinitionRow {
  section: RulesSection;
  key: string;
  position: number;
  definition: unknown;
  item_id: string;
  created_at: Date;
}

/** Loads every rule of one environment. */
export async function loadRules(
  db: Queryable,
  environmentId: string,
  version: number,
): Promise<EnvironmentRules> {
  const { rows } = await db.query<DefinitionRow>(
    `SELECT section, key, position, definition, item_id, created_at FROM definitions
     WHERE environment_id = $1 ORDER BY section, position`,
    [environmentId],
  );
  return indexRules({
    version,
    missions: rows
      .filter((r) => r.section === 'missions')
      .map((r) => ({
        definition: r.definition as MissionDefinition,
        position: r.position,
        createdAt: r.created_at.toISOString(),
      })),
    collections: rows
      .filter((r) => r.section === 'missionCollections')
      .map((r) => ({ definition: r.definition as MissionCollectionDefinition, collectionId: r.item_id })),
    streaks: rows.filter((r) => r.section === 'streaks').map((r) => r.definition as StreakDefinition),
  });
}

/**
 * The rules of environments, kept in memory and reloaded when an environment's definition version
 * moved: callers read the version (the consumer with its player locks, a request with its row, or
 * `one`) and ask for the rules at it.
 */
export class RulesCache {
  private readonly cached = new Map<string, EnvironmentRules>();

  /**
   * The environment's rules at a definition version read by the caller (undefined or null: nothing
   * was ever defined), loaded when the cached copy is older.
   */
  async atVersion(
    db: Queryable,
    environmentId: string,
    version: string | null | undefined,
  ): Promise<EnvironmentRules> {
    if (version === undefined || version === null) return NO_RULES;
    let rules = this.cached.get(environmentId);
    if (!rules || rules.version !== Number(version)) {
      rules = await loadRules(db, environmentId, Number(version));
      this.cached.set(environmentId, rules);
    }
    return rules;
  }

  async one(db: Queryable, environmentId: string): Promise<EnvironmentRules> {
    const { rows } = await db.query<{ version: string }>(
      'SELECT version FROM definition_versions WHERE environment_id = $1',
      [environmentId],
    );
    return this.atVersion(db, environmentId, rows[0]?.version);
  }
}

/**
 * Applies a whole section: items absent from `items` are removed, the others created or updated
 * (their feed position included). With `dryRun` only the changes are computed.
 */
export async function applySection(
  client: PoolClient,
  environmentId: string,
  section: RulesSection,
  items: { key: string }[],
  dryRun: boolean,
): Promise<SectionItemChange[]> {
  // Serialises concurrent applies of one environment.
  await client.query(
    `INSERT INTO definition_versions (environment_id, version) VALUES ($1, 0)
     ON CONFLICT (environment_id) DO NOTHING`,
    [environmentId],
  );
  await client.query('SELECT version FROM definition_versions WHERE environment_id = $1 FOR UPDATE', [
    environmentId,
  ]);
  const { rows } = await client.query<{ key: string; position: number; definition: unknown }>(
    'SELECT key, position, definition FROM definitions WHERE environment_id = $1 AND section = $2',
    [environmentId, section],
  );
  const stored = new Map(rows.map((r) => [r.key, r]));
  const changes: SectionItemChange[] = [];
  const writes: { key: string; position: number; definition: unknown }[] = [];
  items.forEach((item, position) => {
    const before = stored.get(item.key);
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
  const removed = rows.filter((r) => !wanted.has(r.key)).map((r) => r.key);
  for (const key of removed) changes.push({ section, key, change: 'removed', fields: [] });
  if (dryRun || (writes.length === 0 && removed.length === 0)) return changes;

  if (writes.length) {
    await client.query(
      `INSERT INTO definitions (environment_id, section, key, position, definition, item_id)
       SELECT $1, $2, w.key, w.position, w.definition, w.item_id
       FROM unnest($3::text[], $4::int[], $5::jsonb[], $6::uuid[]) AS w(key, position, definition, item_id)
       ON CONFLICT (environment_id, section, key) DO UPDATE SET
         position = EXCLUDED.position,
         definition = EXCLUDED.definition,
         version = definitions.version + 1,
         updated_at = now()`,
      [
        environmentId,
        section,
        writes.map((w) => w.key),
        writes.map((w) => w.position),
        writes.map((w) => JSON.stringify(w.definition)),
        writes.map((w) => derivedUuid(section, environmentId, w.key)),
      ],
    );
  }
  if (removed.length) {
    await client.query(
      'DELETE FROM definitions WHERE environment_id = $1 AND section = $2 AND key = ANY($3)',
      [environmentId, section, removed],
    );
  }
  await client.query('UPDATE definition_versions SET version = version + 1 WHERE environment_id = $1', [
    environmentId,
  ]);
  return changes;
}

/** The section as applied, in feed order. */
export async function readSection(db: Queryable, environmentId: string, section: RulesSection) {
  const { rows } = await db.query<{ definition: unknown }>(
    'SELECT definition FROM definitions WHERE environment_id = $1 AND section = $2 ORDER BY position',
    [environmentId, section],
  );
  return rows.map((r) => r.definition);
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
