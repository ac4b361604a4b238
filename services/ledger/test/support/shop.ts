import type { EnvironmentContext, PlayerContext } from '@engage/contracts';
import type { MarketplaceSection, MarketplaceSectionSchema } from '@engage/contracts/environment/shop.ts';
import type { HttpApp } from '@engage/kit';
import { injectAsGateway, internalHeaders } from '@engage/testkit';
import type { z } from 'zod';
import type { Answer } from './adjust.ts';

type Player = Partial<PlayerContext> & { id: string };

/** PUT the `marketplace` section as the gateway hands it over. */
export async function applyShopSection(
  app: HttpApp,
  env: EnvironmentContext,
  section: z.input<typeof MarketplaceSectionSchema> | MarketplaceSection,
  dryRun = false,
) {
  const res = await injectAsGateway(app, {
    method: 'PUT',
    url: `/internal/v1/environments/${env.environmentId}/definition/marketplace?dryRun=${dryRun}`,
    headers: internalHeaders(env),
    payload: section,
  });
  return { status: res.statusCode, body: res.json() };
}

export async function shopGet(app: HttpApp, env: EnvironmentContext, player: Player, path: string) {
  const separator = path.includes('?') ? '&' : '?';
  const res = await injectAsGateway(app, {
    method: 'GET',
    url: `${path}${separator}PlayerId=${encodeURIComponent(player.id)}`,
    headers: internalHeaders(env, player),
  });
  return { status: res.statusCode, body: res.json() };
}

export interface PurchaseBody {
  playerId: string;
  idempotencyKey?: string;
  expectedPriceInPoints?: number;
}

export async function purchase(
  app: HttpApp,
  env: EnvironmentContext,
  itemKey: string,
  body: PurchaseBody,
  player: Partial<PlayerContext> = {},
): Promise<Answer> {
  const res = await injectAsGateway(app, {
    method: 'POST',
    url: `/v1/marketplace-items/${encodeURIComponent(itemKey)}/purchases`,
    headers: internalHeaders(env, { ...player, id: body.playerId }),
    payload: body,
  });
  return {
    status: res.statusCode,
    body: res.json(),
    text: res.body,
    replayed: res.headers['idempotent-replayed'] === 'true',
  };
}

/** A shop item definition with the required fields filled in. */
export function item(key: string, fields: Record<string, unknown> = {}) {
  return { key, name: `Item ${key}`, priceInPoints: 10, ...fields };
}
