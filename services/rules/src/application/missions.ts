import {
  type EnvironmentContext,
  isEligible,
  type MissionCollectionSchema,
  type PlayerContext,
  type RulesProgress,
  resolveOptionalText,
  resolveText,
  topics,
} from '@engage/contracts';
import type { MissionDefinition } from '@engage/contracts/environment/missions.ts';
import { enqueueOutbox } from '@engage/kafka';
import { conflict, notFound } from '@engage/kit';
import { type Pool, withTransaction } from '@engage/postgres';
import type { z } from 'zod';
import type { EnvironmentRules, StoredMission } from '../domain/definitions.ts';
import { derivedUuid } from '../domain/ids.ts';
import { type MissionView, missionView } from '../domain/mission-view.ts';
import {
  calendarOccurrence,
  enterOnRead,
  isOpen,
  type MissionEntry,
  type PlayerMissions,
} from '../domain/missions.ts';
import {
  findProgressAndRulesVersion,
  insertProgress,
  lockProgress,
  saveProgress,
} from '../store/progress.ts';
import type { RulesCache } from './rules-cache.ts';

export interface MissionDeps {
  pool: Pool;
  rules: RulesCache;
  topicPrefix: string;
  /** Wakes the outbox relay after a commit that wrote records. */
  onOutbox: () => void;
}

export interface MissionReader {
  env: EnvironmentContext;
  player: PlayerContext;
  languageCode: string | undefined;
}

/** Whether the player sees the mission now: switched on, within its window and eligible. */
export function isVisible(mission: MissionDefinition, player: PlayerContext, now: number): boolean {
  return isOpen(mission, now) && isEligible(mission.eligibility, player.attributes);
}

/**
 * The missions `select` picks, as the player sees them now, entering the player into every one they
 * newly became eligible for (and into a new occurrence of a repeating one). Hidden missions are left
 * out. A read that changes nothing writes nothing; with `peek`, no read writes anything.
 */
export async function readMissions(
  deps: MissionDeps,
  reader: MissionReader,
  select: (rules: EnvironmentRules) => StoredMission[],
  options: { peek?: boolean } = {},
): Promise<MissionView[]> {
  const now = Date.now();
  const ref = { environmentId: reader.env.environmentId, playerId: reader.player.id };
  const { stored, rulesVersion } = await findProgressAndRulesVersion(deps.pool, ref);
  const rules = await deps.rules.atVersion(deps.pool, ref.environmentId, rulesVersion);
  const visible = select(rules).filter((m) => isVisible(m.definition, reader.player, now));
  if (visible.length === 0) return [];
  let entries = stored?.missions ?? {};
  if (options.peek) {
    // An operator's look: the missions as the player's own read would show them, nothing written.
    entries = enterVisible(reader, visible, entries, now).missions;
  } else if (
    visible.some((m) => enterOnRead(m.definition, m.createdAt, entries[m.definition.key], now).changed)
  ) {
    entries = await withTransaction(deps.pool, async (client) => {
      // A player's first read creates their row already holding the entries: one statement.
      if (!stored) {
        const first = enterVisible(reader, visible, {}, now);
        if (await insertProgress(client, { ...ref, missions: first.missions, streaks: {} })) {
          await enqueueOutbox(client, topics.rulesProgress, deps.topicPrefix, first.records);
          return first.missions;
        }
      }
      const [locked] = await lockProgress(client, [ref]);
      const next = enterVisible(reader, visible, locked!.missions, now);
      await saveProgress(client, [{ ...locked!, missions: next.missions }]);
      await enqueueOutbox(client, topics.rulesProgress, deps.topicPrefix, next.records);
      return next.missions;
    });
    deps.onOutbox();
  }
  return visible.map((m) =>
    missionView(
      reader.env.environmentId,
      m.definition,
      m.createdAt,
      entries[m.definition.key]!,
      reader.languageCode,
    ),
  );
}

/** The entries `missions` become when the player reads the visible missions, and the records of the entering. */
function enterVisible(
  reader: MissionReader,
  visible: StoredMission[],
  missions: PlayerMissions,
  now: number,
) {
  const next = { ...missions };
  const records: RulesProgress[] = [];
  for (const m of visible) {
    const result = enterOnRead(m.definition, m.createdAt, next[m.definition.key], now);
    if (!result.changed) continue;
    next[m.definition.key] = result.entry;
    if (result.entered) records.push(step(reader, 'MissionEntered', m.definition.key, result.entry, now));
  }
  return { missions: next, records };
}

/** One mission (also one only in collections); unknown, switched off, closed and hidden are one 404. */
export async function readMission(
  deps: MissionDeps,
  reader: MissionReader,
  missionKey: string,
): Promise<MissionView> {
  const [mission] = await readMissions(deps, reader, (rules) => {
    const m = rules.missions.get(missionKey);
    return m ? [m] : [];
  });
  if (!mission) throw missionNotFound(missionKey);
  return mission;
}

/**
 * A mission collection with the missions of it the player sees (endpoint 3), entering the player
 * as `readMissions` does; unknown and switched-off collections are one 404.
 */
export async function readCollection(
  deps: MissionDeps,
  reader: MissionReader,
  collectionKey: string,
): Promise<z.infer<typeof MissionCollectionSchema>> {
  const rules = await deps.rules.one(deps.pool, reader.env.environmentId);
  const collection = rules.collections.get(collectionKey);
  if (!collection?.definition.active) {
    throw notFound('mission_collection.not_found', `No mission collection '${collectionKey}'.`);
  }
  const { definition } = collection;
  const missions = await readMissions(deps, reader, (r) =>
    definition.missions.flatMap((key) => {
      const mission = r.missions.get(key);
      return mission ? [mission] : [];
    }),
  );
  return {
    collectionId: collection.collectionId,
    key: definition.key,
    name: resolveText(definition.name, reader.languageCode),
    description: resolveOptionalText(definition.description, reader.languageCode),
    images: definition.images,
    missions,
  };
}

/**
 * Accepts a mission that requires acceptance: from now on its objectives count. A mission the
 * player cannot see and was never entered into is `mission.not_found`, as on endpoint 2. The player
 * must have been entered by a read (`mission.not_locked_in`), and the mission (or its daily/weekly
 * occurrence) must still be open (`mission.window_closed`). Accepting again, accepting an Automatic
 * mission or a completed one answers the mission as it is.
 */
export async function acceptMission(
  deps: MissionDeps,
  reader: MissionReader,
  missionKey: string,
): Promise<MissionView> {
  const now = Date.now();
  const rules = await deps.rules.one(deps.pool, reader.env.environmentId);
  const stored = rules.missions.get(missionKey);
  const visible =
    stored?.definition.active && isEligible(stored.definition.eligibility, reader.player.attributes);
  if (!stored || !visible) {
    throw missionNotFound(missionKey);
  }
  const mission = stored.definition;
  const ref = { environmentId: reader.env.environmentId, playerId: reader.player.id };
  let accepted = false;
  const entry = await withTransaction(deps.pool, async (client) => {
    const [locked] = await lockProgress(client, [ref]);
    const current = locked!.missions[missionKey];
    if (!current) {
      // Outside its window the player cannot see it (endpoint 2's 404): telling them they were
      // never entered would tell that mission apart from one that does not exist.
      if (!isOpen(mission, now)) throw missionNotFound(missionKey);
      throw notFound('mission.not_locked_in', `The player was never entered into mission '${missionKey}'.`);
    }
    if (!isOpen(mission, now) || calendarOccurrence(mission, stored.createdAt, now) !== current.occurrence) {
      throw conflict('mission.window_closed', `Mission '${missionKey}' is no longer open.`, {
        occurrenceNumber: current.occurrence,
      });
    }
    if (mission.optInMode === 'Automatic' || current.acceptedAt || current.completedAt) return current;
    const at = new Date(now).toISOString();
    const next: MissionEntry = { ...current, acceptedAt: at, countingSince: at };
    await saveProgress(client, [{ ...locked!, missions: { ...locked!.missions, [missionKey]: next } }]);
    await enqueueOutbox(client, topics.rulesProgress, deps.topicPrefix, [
      step(reader, 'MissionAccepted', missionKey, next, now),
    ]);
    accepted = true;
    return next;
  });
  if (accepted) deps.onOutbox();
  return missionView(reader.env.environmentId, mission, stored.createdAt, entry, reader.languageCode);
}

export const missionNotFound = (missionKey: string) =>
  notFound('mission.not_found', `No mission '${missionKey}' for this player.`);

function step(
  reader: MissionReader,
  kind: 'MissionEntered' | 'MissionAccepted',
  missionKey: string,
  entry: MissionEntry,
  now: number,
): RulesProgress {
  const { organizationId, environmentId } = reader.env;
  return {
    recordId: derivedUuid(
      'rules-progress',
      environmentId,
      reader.player.id,
      kind,
      missionKey,
      entry.occurrence,
    ),
    organizationId,
    environmentId,
    playerId: reader.player.id,
    kind,
    subjectKey: missionKey,
    occurrenceNumber: entry.occurrence,
    objectiveKey: null,
    value: null,
    milestoneThreshold: null,
    localDate: null,
    endedAt: null,
    causeEventId: null,
    occurredAt: new Date(now).toISOString(),
  };
}
