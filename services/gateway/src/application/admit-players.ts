import type { EnvironmentContext } from '@engage/contracts';
import type { PoolClient } from '@engage/postgres';
import { playerQuota, type QuotaCode, roomLeft } from '../domain/quota.ts';
import { activeAmong, recordActive } from '../store/activity.ts';
import { addToCounter, lockCounter } from '../store/usage.ts';
import type { EdgeViews } from './edge-views/edge-views.ts';

/**
 * Admits players into this month's active players, in the order given, against the environment's
 * monthly quota (Sandbox: 99 admitted, the 100th refused; Live: `liveCap`, the organization's cap,
 * if any, see liveCapOf).
 * Players already active this month are always admitted. With a limit, the counter row is locked
 * first, so replicas admitting into the same quota take turns and the count stays exact.
 * Returns the refused players with their code; must run inside the caller's transaction.
 */
export async function admitPlayers(
  client: PoolClient,
  environment: EnvironmentContext,
  liveCap: number | null,
  month: string,
  candidates: readonly string[],
): Promise<Map<string, QuotaCode>> {
  const refused = new Map<string, QuotaCode>();
  if (candidates.length === 0) return refused;
  const quota = playerQuota(environment.environmentKind, environment, liveCap);
  const used =
    quota.admitted === null ? 0 : await lockCounter(client, quota.scopeId, 'monthly_active_players', month);
  const already = await activeAmong(client, environment.environmentId, month, candidates);
  const newcomers = candidates.filter((id) => !already.has(id));
  const room = roomLeft(quota.admitted, used, newcomers.length);
  for (const id of newcomers.slice(room)) refused.set(id, quota.code);
  const added = await recordActive(client, environment.environmentId, month, newcomers.slice(0, room));
  await addToCounter(client, quota.scopeId, 'monthly_active_players', month, added);
  return refused;
}

/** The cap on the organization's Live players as this replica holds it (null: none; Sandbox: null). */
export function liveCapOf(
  views: Pick<EdgeViews, 'organization'>,
  environment: EnvironmentContext,
): number | null {
  if (environment.environmentKind !== 'Live') return null;
  return views.organization(environment.organizationId)?.liveMonthlyActivePlayersCap ?? null;
}
