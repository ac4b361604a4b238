import { hash } from 'node:crypto';

/** What the rules engine knows about one player's activity so far. */
export interface PlayerActivity {
  environmentId: string;
  playerId: string;
  eventsApplied: number;
  lastEventId: string;
  /** Offset of the last applied event on its partition. */
  lastOffset: string;
  /** The latest time any applied event says it happened (callers may stamp events out of order). */
  lastOccurredAt: string;
  appliedEventsDigest: string;
}

/** What the next events' activity continues from. */
export type ActivitySoFar = Pick<PlayerActivity, 'eventsApplied' | 'lastOccurredAt' | 'appliedEventsDigest'>;

/** The part of an accepted event the activity counter reads. */
export interface ActivityEvent {
  eventId: string;
  offset: string;
  occurredAt: string;
}

export const EMPTY_DIGEST = '';

/** Chains one more event id onto a digest of the events applied before it. */
export function chainDigest(digest: string, eventId: string): string {
  return hash('sha256', `${digest}:${eventId}`);
}

/**
 * Folds a player's newly consumed events (in offset order) into their activity. `previous` is the
 * stored state, absent for a player seen for the first time. Returns undefined when there is
 * nothing to apply.
 */
export function foldActivity(
  player: { environmentId: string; playerId: string },
  previous: ActivitySoFar | undefined,
  events: readonly ActivityEvent[],
): PlayerActivity | undefined {
  const last = events.at(-1);
  if (!last) return undefined;
  let digest = previous?.appliedEventsDigest ?? EMPTY_DIGEST;
  let latest = previous?.lastOccurredAt;
  let latestMs = latest === undefined ? Number.NEGATIVE_INFINITY : Date.parse(latest);
  for (const event of events) {
    digest = chainDigest(digest, event.eventId);
    if (event.occurredAt === latest) continue;
    // The latest time any event says, the newer event's text when two name the same instant.
    const ms = Date.parse(event.occurredAt);
    if (latestMs > ms) continue;
    latest = event.occurredAt;
    latestMs = ms;
  }
  return {
    environmentId: player.environmentId,
    playerId: player.playerId,
    eventsApplied: (previous?.eventsApplied ?? 0) + events.length,
    lastEventId: last.eventId,
    lastOffset: last.offset,
    lastOccurredAt: latest!,
    appliedEventsDigest: digest,
  };
}
