import {
  MissionCollectionsSectionSchema,
  MissionsSectionSchema,
} from '@engage/contracts/environment/missions.ts';
import { StreaksSectionSchema } from '@engage/contracts/environment/streaks.ts';
import { type HttpApp, registerDefinitionSection } from '@engage/kit';
import type { Pool } from '@engage/postgres';
import type { z } from 'zod';
import { applyRulesSection, readRulesSection } from '../application/definitions.ts';
import type { RulesSection } from '../domain/definition-changes.ts';

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
      apply: (env, items, dryRun) => applyRulesSection(deps.pool, env.environmentId, name, items, dryRun),
      read: (env) => readRulesSection(deps.pool, env.environmentId, name),
    });
  }
}
