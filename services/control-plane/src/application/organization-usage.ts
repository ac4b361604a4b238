import type { OrganizationUsage } from '@engage/contracts/http/admin.ts';
import type { Logger } from '@engage/kit';
import type { Pool } from '@engage/postgres';
import { z } from 'zod';
import { SANDBOX_DAILY_EVENTS_LIMIT, SANDBOX_MONTHLY_ACTIVE_PLAYERS_LIMIT } from '../domain/quota.ts';
import { findOrganization } from '../store/control-plane.ts';
import type { Upstreams } from '../upstreams/upstreams.ts';
import { askOwner } from './ask-owner.ts';

/** The gateway's counters of one organization (it admits players and Sandbox events). */
const GatewayUsageSchema = z.object({
  month: z.string(),
  day: z.string(),
  liveMonthlyActivePlayers: z.number(),
  requestsInFlight: z.object({ limit: z.number(), refusedToday: z.number() }),
  sandboxes: z.array(
    z.object({ environmentId: z.string(), monthlyActivePlayers: z.number(), eventsToday: z.number() }),
  ),
});

/**
 * An organization's usage against its limits now: its projects and cap from here, the exact
 * counters that admit players and Sandbox events and the in-flight limit's refusals today from the
 * gateway that keeps them.
 */
export async function organizationUsage(
  deps: { pool: Pool; upstreams: Upstreams; log: Logger },
  organizationId: string,
): Promise<OrganizationUsage | undefined> {
  const organization = await findOrganization(deps.pool, organizationId);
  if (!organization) return undefined;
  const sandboxes = organization.projects.map((project) => project.sandbox);
  const query = new URLSearchParams(
    sandboxes.map((sandbox): [string, string] => ['sandbox', sandbox.environmentId]),
  );
  const someSandbox = sandboxes[0]?.environmentId ?? organizationId;
  const answer = await askOwner(
    deps,
    'gateway',
    { organizationId, environmentId: someSandbox, environmentKind: 'Sandbox' },
    undefined,
    { method: 'GET', path: `/internal/v1/organizations/${organizationId}/usage?${query}` },
  );
  const counts = GatewayUsageSchema.parse(JSON.parse(answer.body.toString('utf8')));
  return {
    organizationId,
    month: counts.month,
    day: counts.day,
    liveMonthlyActivePlayers: {
      used: counts.liveMonthlyActivePlayers,
      limit: organization.liveMonthlyActivePlayersCap,
    },
    requestsInFlight: counts.requestsInFlight,
    sandboxes: sandboxes.map((sandbox, i) => ({
      projectId: sandbox.projectId,
      environmentId: sandbox.environmentId,
      monthlyActivePlayers: {
        used: counts.sandboxes[i]!.monthlyActivePlayers,
        limit: SANDBOX_MONTHLY_ACTIVE_PLAYERS_LIMIT,
      },
      eventsToday: { used: counts.sandboxes[i]!.eventsToday, limit: SANDBOX_DAILY_EVENTS_LIMIT },
    })),
  };
}
