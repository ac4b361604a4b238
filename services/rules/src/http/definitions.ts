import {
  MissionCollectionsSectionSchema,
  MissionsSectionSchema,
} from '@engage/contracts/environment/missions.ts';
import { StreaksSectionSchema } from '@engage/contracts/environment/streaks.ts';
import { type HttpApp, registerDefinitionSection } from '@engage/kit';
import { type Pool, withTransaction } from '@engage/postgres';
import type { z } from 'zod';
import { applySection, type RulesSection, readSection } from '../store/definitions.ts';

/**
 * The rules service's sections of the environment file (missions, missionCollections, streaks),
 * through the kit's internal definition endpoints. Each apply replaces the whole section.
 */
export function definitionRoutes(app: HttpApp, deps: { pool: Pool }): void {
  const sections: [RulesSection, z.ZodType<{ key: string }[]>][] = [
    ['missions', MissionsSectionSchema],
    ['missionCollections', MissionCollectionsSectionSchema],
    ['streaks', StreaksSectionSchema],
  ];
  for (const [name, schema] of sections) {
    registerDefinitionSection(app, {
      name,
      schema,
      apply: (env, items, dryRun) =>
        withTransaction(deps.pool, (client) => applySection(client, env.environmentId, name, items, dryRun)),
      read: async (env) => (await readSection(deps.pool, env.environmentId, name)) as { key: string }[],
    });
  }
}
