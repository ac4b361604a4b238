import { problem } from '@engage/kit';
import type { Pool } from '@engage/postgres';
import type { EventRules } from '../domain/event-items.ts';
import { loadEventRules } from '../store/event-definitions.ts';
import { TtlCache } from './cache/ttl-cache.ts';

/**
 * Event definitions per environment, cached briefly. An apply on this replica invalidates at once;
 * other replicas see it within the TTL.
 */
export interface EventRulesCache {
  get(environmentId: string): Promise<EventRules>;
  invalidate(environmentId: string): void;
}

export function createEventRulesCache(options: { pool: Pool; ttlMs: number }): EventRulesCache {
  const cache = new TtlCache<string, EventRules | undefined>({ ttlMs: options.ttlMs, maxEntries: 10_000 });
  return {
    async get(environmentId) {
      const rules = await cache.getOrLoad(environmentId, () => loadEventRules(options.pool, environmentId));
      if (!rules)
        throw problem('project_environment.not_found', 'The environment behind the key did not load.');
      return rules;
    },
    invalidate: (environmentId) => cache.delete(environmentId),
  };
}
