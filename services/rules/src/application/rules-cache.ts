import type { Pool, PoolClient } from '@engage/postgres';
import { type EnvironmentRules, NO_RULES } from '../domain/definitions.ts';
import { definitionVersion, loadRules } from '../store/definitions.ts';

type Queryable = Pool | PoolClient;

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
    version: string | number | null | undefined,
  ): Promise<EnvironmentRules> {
    if (version === undefined || version === null) return NO_RULES;
    let rules = this.cached.get(environmentId);
    if (!rules || rules.version !== Number(version)) {
      rules = await loadRules(db, environmentId, Number(version));
      this.cached.set(environmentId, rules);
    }
    return rules;
  }

  /** The environment's rules as they stand (one statement reads the version). */
  async one(db: Queryable, environmentId: string): Promise<EnvironmentRules> {
    return this.atVersion(db, environmentId, await definitionVersion(db, environmentId));
  }
}
