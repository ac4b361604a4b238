import type { MilestoneDefinition, StreakDefinition } from '@engage/contracts/environment/streaks.ts';
import { localDate, periodOf, type StreakPeriod, shiftPeriod, startOfLocalDay } from './calendar.ts';

/** One player's record of one streak. */
export interface StreakState {
  /** The live (or last) run: 1 for the player's first. */
  run: number;
  currentCount: number;
  longestCount: number;
  /** First day of the last period that counted. */
  lastQualifyingDate: string | null;
  /** Zone of the latest qualifying event: the run's days and expiry are read in it. */
  timeZone: string;
  /** Qualifying events so far in a period that has not counted yet (streaks needing several). */
  pendingPeriod: string | null;
  pendingEvents: number;
  /** Milestones reached in the live run. */
  reachedInRun: number[];
  /** Milestones ever reached (a milestone that does not repeat is rewarded once per player). */
  reachedEver: number[];
}

export const NEW_STREAK: StreakState = {
  run: 0,
  currentCount: 0,
  longestCount: 0,
  lastQualifyingDate: null,
  timeZone: 'UTC',
  pendingPeriod: null,
  pendingEvents: 0,
  reachedInRun: [],
  reachedEver: [],
};

export type StreakStep =
  | { kind: 'StreakBroken'; run: number; count: number; lastPeriod: string; endedAtMs: number }
  | { kind: 'StreakExtended'; run: number; count: number; period: string }
  | { kind: 'StreakMilestoneReached'; run: number; milestone: MilestoneDefinition; rewarded: boolean };

/**
 * One qualifying event, read on the local `date` (in `timeZone`, the zone it came with):
 * - a period already counted, or older than one that counted or is pending, changes nothing (late);
 * - it adds to the period's pending events; when they reach `eventsPerPeriod` the period counts:
 *   right after the last counted period the run grows, otherwise a new run starts at 1 (the run
 *   before it, if any, is reported broken first: a break happens as time passes, and is first seen
 *   here);
 * - every milestone the run reaches is marked; it is rewarded when it repeats after a reset or was
 *   never reached before.
 */
export function applyQualifyingEvent(
  streak: StreakDefinition,
  state: StreakState,
  date: string,
  timeZone: string,
): { state: StreakState; steps: StreakStep[] } {
  const period = periodOf(date, streak.period);
  const last = state.lastQualifyingDate;
  if (last !== null && period <= last) return { state, steps: [] };
  if (state.pendingPeriod !== null && period < state.pendingPeriod) return { state, steps: [] };
  const pendingEvents = state.pendingPeriod === period ? state.pendingEvents + 1 : 1;
  if (pendingEvents < streak.eventsPerPeriod) {
    return { state: { ...state, pendingPeriod: period, pendingEvents }, steps: [] };
  }
  const continues = last !== null && shiftPeriod(last, streak.period, 1) === period;
  const run = continues ? state.run : state.run + 1;
  const currentCount = continues ? state.currentCount + 1 : 1;
  const reachedInRun = continues ? [...state.reachedInRun] : [];
  const reachedEver = [...state.reachedEver];
  const steps: StreakStep[] = [];
  if (last !== null && !continues) {
    steps.push({
      kind: 'StreakBroken',
      run: state.run,
      count: state.currentCount,
      lastPeriod: last,
      endedAtMs: runExpiry(last, streak.period, state.timeZone),
    });
  }
  steps.push({ kind: 'StreakExtended', run, count: currentCount, period });
  for (const milestone of [...streak.milestones].sort((a, b) => a.threshold - b.threshold)) {
    if (milestone.threshold > currentCount || reachedInRun.includes(milestone.threshold)) continue;
    const rewarded = milestone.repeatsAfterReset || !reachedEver.includes(milestone.threshold);
    reachedInRun.push(milestone.threshold);
    if (!reachedEver.includes(milestone.threshold)) reachedEver.push(milestone.threshold);
    steps.push({ kind: 'StreakMilestoneReached', run, milestone, rewarded });
  }
  return {
    state: {
      run,
      currentCount,
      longestCount: Math.max(state.longestCount, currentCount),
      lastQualifyingDate: period,
      timeZone,
      pendingPeriod: null,
      pendingEvents: 0,
      reachedInRun,
      reachedEver,
    },
    steps,
  };
}

export type StreakStatus = 'NotStarted' | 'Active' | 'AtRisk' | 'Broken';

export interface StreakProgressView {
  status: StreakStatus;
  currentCount: number;
  longestCount: number;
  lastQualifyingDate: string | null;
  todayCounts: boolean;
  runExpiresAtUtc: string | null;
  nextMilestoneThreshold: number | null;
  milestones: { milestone: MilestoneDefinition; isReached: boolean }[];
}

/**
 * What a read shows at `now`, with today read in the run's zone: `Active` when the current period
 * already counts, `AtRisk` when the run is alive but the current period does not count yet (it
 * ends at `runExpiresAtUtc`, the start of the period after the current one), `Broken` when the run
 * ended (the count shows 0), `NotStarted` before any period counted.
 */
export function streakProgress(
  streak: StreakDefinition,
  state: StreakState,
  now: number,
): StreakProgressView {
  const current = periodOf(localDate(now, state.timeZone), streak.period);
  const last = state.lastQualifyingDate;
  const alive = last !== null && last >= shiftPeriod(current, streak.period, -1);
  const currentCount = alive ? state.currentCount : 0;
  const reachedInRun = alive ? state.reachedInRun : [];
  const milestones = [...streak.milestones]
    .sort((a, b) => a.threshold - b.threshold)
    .map((milestone) => ({
      milestone,
      isReached:
        reachedInRun.includes(milestone.threshold) ||
        (!milestone.repeatsAfterReset && state.reachedEver.includes(milestone.threshold)),
    }));
  return {
    status: last === null ? 'NotStarted' : !alive ? 'Broken' : last === current ? 'Active' : 'AtRisk',
    currentCount,
    longestCount: state.longestCount,
    lastQualifyingDate: last,
    todayCounts: alive && last === current,
    runExpiresAtUtc: alive ? new Date(runExpiry(last, streak.period, state.timeZone)).toISOString() : null,
    nextMilestoneThreshold:
      milestones.find((m) => !m.isReached && m.milestone.threshold > currentCount)?.milestone.threshold ??
      null,
    milestones,
  };
}

/** The run ends when the period after the one following its last counted period begins. */
export function runExpiry(lastQualifyingDate: string, period: StreakPeriod, timeZone: string): number {
  return startOfLocalDay(shiftPeriod(lastQualifyingDate, period, 2), timeZone);
}
