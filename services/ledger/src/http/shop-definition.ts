import { MarketplaceSectionSchema } from '@engage/contracts/environment/shop.ts';
import { type HttpApp, registerDefinitionSection } from '@engage/kit';
import type { Pool } from '@engage/postgres';
import { applyShop, readShop } from '../application/shop-section.ts';

/** Section `marketplace` of `engage apply`: the shop's items and collections. */
export function shopDefinitionRoutes(app: HttpApp, deps: { pool: Pool }) {
  registerDefinitionSection(app, {
    name: 'marketplace',
    schema: MarketplaceSectionSchema,
    apply: (env, section, dryRun) => applyShop(deps.pool, env.environmentId, section, dryRun),
    read: (env) => readShop(deps.pool, env.environmentId),
  });
}
