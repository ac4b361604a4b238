import { LeaderboardsSectionSchema } from '@engage/contracts/environment/leaderboards.ts';
import { type HttpApp, registerDefinitionSection } from '@engage/kit';
import type { Pool } from '@engage/postgres';
import { applyLeaderboards } from '../application/apply-definitions.ts';
import { type Definitions, loadDefinitions } from '../store/definitions.ts';

/** Section `leaderboards` of the environment file, applied through the gateway's hand-off. */
export function leaderboardDefinitionRoutes(
  app: HttpApp,
  deps: { pool: Pool; definitions: Definitions },
): void {
  registerDefinitionSection(app, {
    name: 'leaderboards',
    schema: LeaderboardsSectionSchema,
    apply: (env, boards, dryRun) => applyLeaderboards(deps, env.environmentId, boards, dryRun),
    read: async (env) => (await loadDefinitions(deps.pool, [env.environmentId])).get(env.environmentId) ?? [],
  });
}
