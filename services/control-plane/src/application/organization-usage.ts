import type { OrganizationUsage } from '@engage/contracts/http/admin.ts';
import type { Pool } from '@engage/postgres';
import {
  dayOf,
  monthOf,
  SANDBOX_DAILY_EVENTS_LIMIT,
  SANDBOX_MONTHLY_ACTIVE_PLAYERS_LIMIT,
} from '../domain/quota.ts';
import { findOrganization } from '../store/control-plane.ts';
import { type CounterToRead, readCounters } from '../store/usage.ts';
import { ORGANIZATION_IN_FLIGHT } from './organization-limit/organization-limit.ts';
import type { RefusalTally } from './organization-limit/refusal-tally.ts';

/**
 * An organization's usage against its limits now, read from the same exact counters that admit
 * players and Sandbox events, and the refusals of its in-flight limit today.
 */
export async function organizationUsage(
  deps: { pool: Pool; refusalTally?: RefusalTally | undefined },
  organizationId: string,
  now = new Date(),
): Promise<OrganizationUsage | undefined> {
  const organization = await findOrganization(deps.pool, organizationId);
  if (!organization) return undefined;
  const month = monthOf(now);
  const day = dayOf(now);
  const sandboxes = organization.projects.map((project) => project.sandbox);
  const wanted: CounterToRead[] = [
    { scopeId: organizationId, metric: 'monthly_active_players', period: month },
    ...sandboxes.flatMap(({ environmentId }): CounterToRead[] => [
      { scopeId: environmentId, metric: 'monthly_active_players', period: month },
      { scopeId: environmentId, metric: 'daily_events', period: day },
    ]),
  ];
  const [counts, refusedToday] = await Promise.all([
    readCounters(deps.pool, wanted),
    deps.refusalTally?.refusedToday(organizationId) ?? 0,
  ]);
  return {
    organizationId,
    month: month.slice(0, 7),
    day,
    liveMonthlyActivePlayers: { used: counts[0]!, limit: organization.liveMonthlyActivePlayersCap },
    requestsInFlight: { limit: ORGANIZATION_IN_FLIGHT, refusedToday },
    sandboxes: sandboxes.map((sandbox, i) => ({
      projectId: sandbox.projectId,
      environmentId: sandbox.environmentId,
      monthlyActivePlayers: { used: counts[1 + 2 * i]!, limit: SANDBOX_MONTHLY_ACTIVE_PLAYERS_LIMIT },
      eventsToday: { used: counts[2 + 2 * i]!, limit: SANDBOX_DAILY_EVENTS_LIMIT },
    })),
  };
}
