import type { Pool } from '@engage/postgres';
import { findActivity } from '../store/activity.ts';

/** What the rules engine has applied for one player (a player it never saw has applied nothing). */
export async function playerActivity(pool: Pool, environmentId: string, playerId: string) {
  const activity = await findActivity(pool, { environmentId, playerId });
  return {
    playerId,
    eventsApplied: activity?.eventsApplied ?? 0,
    lastEventId: activity?.lastEventId ?? null,
    lastOccurredAtUtc: activity?.lastOccurredAt ?? null,
    appliedEventsDigest: activity?.appliedEventsDigest ?? null,
    updatedAtUtc: activity?.updatedAt ?? null,
  };
}
