import type { EnvironmentContext, PlayerContext } from '@engage/contracts';
import { notFound } from '@engage/kit';
import type { Pool } from '@engage/postgres';
import { type StreakView, streakView, visibleStreaks } from '../domain/streak-view.ts';
import { findProgress } from '../store/progress.ts';
import type { RulesCache } from './rules-cache.ts';

export interface StreakDeps {
  pool: Pool;
  rules: RulesCache;
}

export interface StreakReader {
  env: EnvironmentContext;
  player: PlayerContext;
  languageCode: string | undefined;
}

/** The player's streaks as they stand now (endpoint 11). Reading writes nothing. */
export async function readStreaks(deps: StreakDeps, reader: StreakReader): Promise<StreakView[]> {
  const visible = visibleStreaks(await deps.rules.one(deps.pool, reader.env.environmentId), reader.player);
  if (visible.length === 0) return [];
  const { streaks } = await findProgress(deps.pool, refOf(reader));
  const now = Date.now();
  return visible.map((s) => streakView(s, streaks[s.key], now, reader.languageCode));
}

/** One streak (endpoint 12); unknown, switched off and hidden are one 404. */
export async function readStreak(
  deps: StreakDeps,
  reader: StreakReader,
  streakKey: string,
): Promise<StreakView> {
  const visible = visibleStreaks(await deps.rules.one(deps.pool, reader.env.environmentId), reader.player);
  const streak = visible.find((s) => s.key === streakKey);
  if (!streak) throw notFound('streak.not_found', `No streak '${streakKey}' for this player.`);
  const { streaks } = await findProgress(deps.pool, refOf(reader));
  return streakView(streak, streaks[streak.key], Date.now(), reader.languageCode);
}

const refOf = (reader: StreakReader) => ({
  environmentId: reader.env.environmentId,
  playerId: reader.player.id,
});
