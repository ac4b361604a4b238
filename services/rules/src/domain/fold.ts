import type { AcceptedEvent, RewardGrant, RulesProgress } from '@engage/contracts';
import { localDate, zoneOrUtc } from './calendar.ts';
import type { EnvironmentRules } from './definitions.ts';
import { matchesFilters } from './filters.ts';
import { derivedUuid } from './ids.ts';
import { advanceEntry, countsAt, draftEntry, type PlayerMissions } from './missions.ts';
import { toReward } from './rewards.ts';
import { applyQualifyingEvent, NEW_STREAK, type StreakState } from './streaks.ts';

export interface ProgressState {
  missions: PlayerMissions;
  streaks: Record<string, StreakState>;
}

export interface FoldResult {
  state: ProgressState;
  changed: boolean;
  grants: RewardGrant[];
  records: RulesProgress[];
}

/** What `foldProgressInPlace` changed in the state it was given. */
export interface InPlaceFold {
  changed: boolean;
  /**
   * Whether anything besides objective values changed (an entry's facts, see `EntryAdvance`, or a
   * streak): then the stored entries and streaks are rewritten, else only the counters.
   */
  factsChanged: boolean;
  grants: RewardGrant[];
  records: RulesProgress[];
}

/** Whether any of the events can move a mission or streak of the environment. */
export function isRelevant(rules: EnvironmentRules, event: AcceptedEvent): boolean {
  return rules.missionsByEvent.has(event.eventKey) || rules.streaksByEvent.has(event.eventKey);
}

/**
 * Folds one player's newly consumed events, in order, into their missions and streaks. Returns the
 * new state, the reward grants earned (ids derived from what earned them) and the analyst records.
 * `previous` is never changed (the fold works on a copy of its entries).
 */
export function foldProgress(
  rules: EnvironmentRules,
  previous: ProgressState,
  events: readonly AcceptedEvent[],
): FoldResult {
  const state: ProgressState = {
    missions: Object.fromEntries(Object.entries(previous.missions).map(([k, e]) => [k, draftEntry(e)])),
    streaks: { ...previous.streaks },
  };
  const { changed, grants, records } = foldProgressInPlace(rules, state, events);
  return { state, changed, grants, records };
}

/**
 * `foldProgress` changing `state` itself: entries and the streaks map in place (objective progress
 * and streak states are replaced, never changed). For a caller that owns the state: the consumer
 * takes a player's cached state out of the cache for its transaction, so a rollback leaves nothing
 * half-folded behind, and no entry is copied per event.
 */
export function foldProgressInPlace(
  rules: EnvironmentRules,
  state: ProgressState,
  events: readonly AcceptedEvent[],
): InPlaceFold {
  const { missions, streaks } = state;
  const grants: RewardGrant[] = [];
  const records: RulesProgress[] = [];
  let changed = false;
  let factsChanged = false;

  for (const event of events) {
    const missionsOnEvent = rules.missionsByEvent.get(event.eventKey);
    const streaksOnEvent = rules.streaksByEvent.get(event.eventKey);
    if (!missionsOnEvent && !streaksOnEvent) continue;
    const receivedMs = Date.parse(event.receivedAt);

    for (const { definition: mission, timing } of missionsOnEvent ?? []) {
      const entry = missions[mission.key];
      if (!entry || !countsAt(timing, entry, receivedMs)) continue;
      const advanced = advanceEntry(mission, entry, event);
      if (!advanced) continue;
      changed = true;
      factsChanged ||= advanced.factsChanged;
      if (advanced.steps.length === 0) continue; // the usual case: nothing satisfied or completed
      for (const step of advanced.steps) {
        const common = {
          subjectKey: mission.key,
          occurrenceNumber: entry.occurrence,
          localDate: null,
          endedAt: null,
        };
        if (step.kind === 'ObjectiveSatisfied') {
          records.push(
            progressRecord(event, {
              kind: step.kind,
              ...common,
              objectiveKey: step.objectiveKey,
              value: step.value,
              milestoneThreshold: null,
            }),
          );
          continue;
        }
        records.push(
          progressRecord(event, {
            kind: step.kind,
            ...common,
            objectiveKey: null,
            value: null,
            milestoneThreshold: null,
          }),
        );
        if (mission.rewards.length > 0) {
          grants.push({
            grantId: derivedUuid(
              'grant',
              event.environmentId,
              event.playerId,
              'Mission',
              mission.key,
              entry.occurrence,
              null,
            ),
            ...playerOf(event),
            source: 'Mission',
            sourceKey: mission.key,
            occurrenceNumber: entry.occurrence,
            milestoneThreshold: null,
            rewards: mission.rewards.map(toReward),
            grantedAt: event.receivedAt,
          });
        }
      }
    }

    if (!streaksOnEvent) continue;
    const zone = zoneOrUtc(event.timeZone);
    // The day the event happened as the caller says, but never later than its acceptance.
    const at = Math.min(Date.parse(event.occurredAt), receivedMs);
    const date = localDate(at, zone);
    for (const { definition: streak, fromMs } of streaksOnEvent) {
      if (at < fromMs) continue;
      if (
        !streak.events.some((q) => q.event === event.eventKey && matchesFilters(q.filters, event.properties))
      ) {
        continue;
      }
      const before = streaks[streak.key] ?? NEW_STREAK;
      const applied = applyQualifyingEvent(streak, before, date, zone);
      if (applied.state === before) continue;
      streaks[streak.key] = applied.state;
      changed = true;
      factsChanged = true;
      for (const step of applied.steps) {
        const common = { subjectKey: streak.key, occurrenceNumber: step.run, objectiveKey: null };
        if (step.kind === 'StreakBroken') {
          records.push(
            progressRecord(event, {
              kind: step.kind,
              ...common,
              value: step.count,
              milestoneThreshold: null,
              localDate: step.lastPeriod,
              endedAt: new Date(step.endedAtMs).toISOString(),
            }),
          );
          continue;
        }
        if (step.kind === 'StreakExtended') {
          records.push(
            progressRecord(event, {
              kind: step.kind,
              ...common,
              value: step.count,
              milestoneThreshold: null,
              localDate: step.period,
              endedAt: null,
            }),
          );
          continue;
        }
        const threshold = step.milestone.threshold;
        records.push(
          progressRecord(event, {
            kind: step.kind,
            ...common,
            value: null,
            milestoneThreshold: threshold,
            localDate: null,
            endedAt: null,
          }),
        );
        if (step.rewarded && step.milestone.rewards.length > 0) {
          // Once per run for a repeating milestone, once per player otherwise.
          const run = step.milestone.repeatsAfterReset ? step.run : 0;
          grants.push({
            grantId: derivedUuid(
              'grant',
              event.environmentId,
              event.playerId,
              'StreakMilestone',
              streak.key,
              run,
              threshold,
            ),
            ...playerOf(event),
            source: 'StreakMilestone',
            sourceKey: streak.key,
            occurrenceNumber: step.run,
            milestoneThreshold: threshold,
            rewards: step.milestone.rewards.map(toReward),
            grantedAt: event.receivedAt,
          });
        }
      }
    }
  }
  return { changed, factsChanged, grants, records };
}

const playerOf = (event: AcceptedEvent) => ({
  organizationId: event.organizationId,
  environmentId: event.environmentId,
  playerId: event.playerId,
});

type RecordFacts = Omit<
  RulesProgress,
  'recordId' | 'organizationId' | 'environmentId' | 'playerId' | 'causeEventId' | 'occurredAt'
>;

/** An analyst record caused by `event` (its id derived from the event and what it records). */
function progressRecord(event: AcceptedEvent, facts: RecordFacts): RulesProgress {
  return {
    recordId: derivedUuid(
      'rules-progress',
      event.eventId,
      facts.kind,
      facts.subjectKey,
      facts.objectiveKey,
      facts.milestoneThreshold,
    ),
    ...playerOf(event),
    ...facts,
    causeEventId: event.eventId,
    occurredAt: event.receivedAt,
  };
}
