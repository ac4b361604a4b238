import type { AcceptedEvent, RewardGrant, RulesProgress } from '@engage/contracts';
import { localDate, zoneOrUtc } from './calendar.ts';
import type { EnvironmentRules } from './definitions.ts';
import { matchesFilters } from './filters.ts';
import { derivedUuid } from './ids.ts';
import { applyEvent, counts, type PlayerMissions } from './missions.ts';
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

/** Whether any of the events can move a mission or streak of the environment. */
export function isRelevant(rules: EnvironmentRules, event: AcceptedEvent): boolean {
  return rules.missionsByEvent.has(event.eventKey) || rules.streaksByEvent.has(event.eventKey);
}

/**
 * Folds one player's newly consumed events, in order, into their missions and streaks. Returns the
 * new state, the reward grants earned (ids derived from what earned them) and the analyst records.
 */
export function foldProgress(
  rules: EnvironmentRules,
  previous: ProgressState,
  events: readonly AcceptedEvent[],
): FoldResult {
  const missions = { ...previous.missions };
  const streaks = { ...previous.streaks };
  const grants: RewardGrant[] = [];
  const records: RulesProgress[] = [];
  let changed = false;

  for (const event of events) {
    const base = {
      organizationId: event.organizationId,
      environmentId: event.environmentId,
      playerId: event.playerId,
    };
    const record = (r: Omit<RulesProgress, 'recordId' | keyof typeof base | 'causeEventId' | 'occurredAt'>) =>
      records.push({
        recordId: derivedUuid(
          'rules-progress',
          event.eventId,
          r.kind,
          r.subjectKey,
          r.objectiveKey,
          r.milestoneThreshold,
        ),
        ...base,
        ...r,
        causeEventId: event.eventId,
        occurredAt: event.receivedAt,
      });

    for (const mission of rules.missionsByEvent.get(event.eventKey) ?? []) {
      const entry = missions[mission.key];
      const anchor = rules.missions.get(mission.key)?.createdAt ?? event.receivedAt;
      if (!entry || !counts(mission, anchor, entry, event)) continue;
      const applied = applyEvent(mission, entry, event);
      if (applied.entry === entry) continue;
      missions[mission.key] = applied.entry;
      changed = true;
      for (const step of applied.steps) {
        const common = { subjectKey: mission.key, occurrenceNumber: entry.occurrence, localDate: null };
        if (step.kind === 'ObjectiveSatisfied') {
          record({
            kind: step.kind,
            ...common,
            objectiveKey: step.objectiveKey,
            value: step.value,
            milestoneThreshold: null,
          });
          continue;
        }
        record({ kind: step.kind, ...common, objectiveKey: null, value: null, milestoneThreshold: null });
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
            ...base,
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

    const streakDefs = rules.streaksByEvent.get(event.eventKey);
    if (!streakDefs) continue;
    const zone = zoneOrUtc(event.timeZone);
    // The day the event happened as the caller says, but never later than its acceptance.
    const at = Math.min(Date.parse(event.occurredAt), Date.parse(event.receivedAt));
    const date = localDate(at, zone);
    for (const streak of streakDefs) {
      if (streak.availableFromUtc && at < Date.parse(streak.availableFromUtc)) continue;
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
      for (const step of applied.steps) {
        const common = { subjectKey: streak.key, occurrenceNumber: step.run, objectiveKey: null };
        if (step.kind === 'StreakExtended') {
          record({
            kind: step.kind,
            ...common,
            value: step.count,
            milestoneThreshold: null,
            localDate: step.period,
          });
          continue;
        }
        const threshold = step.milestone.threshold;
        record({ kind: step.kind, ...common, value: null, milestoneThreshold: threshold, localDate: null });
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
            ...base,
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
  return { state: { missions, streaks }, changed, grants, records };
}
