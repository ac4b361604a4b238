import { createHash } from 'node:crypto';

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

/** The part of an accepted event the activity counter reads. */
export interface ActivityEvent {
  eventId: string;
  offset: string;
  occurredAt: string;
}

export const EMPTY_DIGEST = '';

/** Chains one more event id onto a digest of the events applied before it. */
export function chainDigest(digest: string, eventId: string): string {
  return createHash('sha256').update(`${digest}:${eventId}`).digest('hex');
}

/**
 * Folds a player's newly consumed events (in offset order) into their activity. `previous` is the
 * stored state, absent for a player seen for the first time. Returns undefined when there is
 * nothing to apply.
 */
export function foldActivity(
  player: { environmentId: string; playerId: string },
  previous: PlayerActivity | undefined,
  events: readonly ActivityEvent[],
): PlayerActivity | undefined {
  let state = previous;
  for (const event of events) {
    state = {
      environmentId: player.environmentId,
      playerId: player.playerId,
      eventsApplied: (state?.eventsApplied ?? 0) + 1,
      lastEventId: event.eventId,
      lastOffset: event.offset,
      lastOccurredAt: later(state?.lastOccurredAt, event.occurredAt),
      appliedEventsDigest: chainDigest(state?.appliedEventsDigest ?? EMPTY_DIGEST, event.eventId),
    };
  }
  return state;
}

function later(a: string | undefined, b: string): string {
  return a !== undefined && Date.parse(a) > Date.parse(b) ? a : b;
}
