import { isDeepStrictEqual } from 'node:util';
import {
  type LeaderboardDefinition,
  LeaderboardsSectionSchema,
} from '@engage/contracts/environment/leaderboards.ts';
import { type HttpApp, registerDefinitionSection, type SectionItemChange } from '@engage/kit';
import { type Pool, withTransaction } from '@engage/postgres';
import { type Definitions, loadDefinitions, replaceDefinitions } from '../store/definitions.ts';

/** What applying `next` changes, board by board (fields: the top-level fields that differ). */
export function diffBoards(
  current: readonly LeaderboardDefinition[],
  next: readonly LeaderboardDefinition[],
): SectionItemChange[] {
  const before = new Map(current.map((b) => [b.key, b]));
  const changes: SectionItemChange[] = next.map((board) => {
    const old = before.get(board.key);
    if (!old) return { section: 'leaderboards', key: board.key, change: 'created', fields: [] };
    const fields = [...new Set([...Object.keys(old), ...Object.keys(board)])].filter(
      (f) =>
        !isDeepStrictEqual(old[f as keyof LeaderboardDefinition], board[f as keyof LeaderboardDefinition]),
    );
    return {
      section: 'leaderboards',
      key: board.key,
      change: fields.length ? 'updated' : 'unchanged',
      fields,
    };
  });
  const kept = new Set(next.map((b) => b.key));
  for (const board of current) {
    if (!kept.has(board.key))
      changes.push({ section: 'leaderboards', key: board.key, change: 'removed', fields: [] });
  }
  return changes;
}

/** Section `leaderboards` of the environment file, applied through the gateway's hand-off. */
export function leaderboardDefinitionRoutes(
  app: HttpApp,
  deps: { pool: Pool; definitions: Definitions },
): void {
  registerDefinitionSection(app, {
    name: 'leaderboards',
    schema: LeaderboardsSectionSchema,
    apply: async (env, boards, dryRun) => {
      const changes = await withTransaction(deps.pool, async (client) => {
        await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [
          `leaderboards:${env.environmentId}`,
        ]);
        const current = (await loadDefinitions(client, [env.environmentId])).get(env.environmentId) ?? [];
        const diff = diffBoards(current, boards);
        if (!dryRun) await replaceDefinitions(client, env.environmentId, boards);
        return diff;
      });
      deps.definitions.forget(env.environmentId);
      return changes;
    },
    read: async (env) => (await loadDefinitions(deps.pool, [env.environmentId])).get(env.environmentId) ?? [],
  });
}
