import type { Redis } from '@engage/redis';
import { boardsMarkerKey, displayNamesKey, leagueGroupKey, periodBoardKey, teamBoardKey } from './keys.ts';
import type { ZaddBatch } from './zadd-batch.ts';

/**
 * Writes of the live boards (Redis sorted sets, the names hash and the environment's marker). Every
 * write sets absolute values, so repeating one changes nothing.
 */

/**
 * One pipeline: an EXISTS of each of `environmentIds`' markers, then the batch's ZADDs (see
 * ZaddBatch: variadic, in pieces). Answers the environments whose marker is missing (their boards
 * need a rebuild).
 */
export async function writeBoardMembers(
  redis: Redis,
  keyPrefix: string,
  members: ZaddBatch,
  environmentIds: readonly string[] = [],
): Promise<string[]> {
  if (members.size === 0 && environmentIds.length === 0) return [];
  const pipeline = redis.pipeline();
  for (const id of environmentIds) pipeline.exists(boardsMarkerKey(keyPrefix, id));
  for (const [key, args] of members.commands()) pipeline.zadd(key, ...args);
  const results = await execPipeline(pipeline);
  return environmentIds.filter((_, i) => results[i]?.[1] !== 1);
}

export interface DisplayName {
  environmentId: string;
  playerId: string;
  displayName: string;
}

/** Writes display names to each environment's names hash, in one pipeline. */
export async function writeDisplayNames(
  redis: Redis,
  keyPrefix: string,
  names: Iterable<DisplayName>,
): Promise<void> {
  const pipeline = redis.pipeline();
  let count = 0;
  for (const n of names) {
    pipeline.hset(displayNamesKey(keyPrefix, n.environmentId), n.playerId, n.displayName);
    count++;
  }
  if (count > 0) await execPipeline(pipeline);
}

/** The display name Redis holds for a player (null: none). */
export async function storedDisplayName(
  redis: Redis,
  keyPrefix: string,
  environmentId: string,
  playerId: string,
): Promise<string | null> {
  return redis.hget(displayNamesKey(keyPrefix, environmentId), playerId);
}

/** Whether the environment's live boards are complete (its marker is there). */
export async function boardsMirrored(
  redis: Redis,
  keyPrefix: string,
  environmentId: string,
): Promise<boolean> {
  return (await redis.exists(boardsMarkerKey(keyPrefix, environmentId))) === 1;
}

/** Marks the environment's live boards complete. */
export async function markBoardsMirrored(
  redis: Redis,
  keyPrefix: string,
  environmentId: string,
): Promise<void> {
  await redis.set(boardsMarkerKey(keyPrefix, environmentId), new Date().toISOString());
}

/** Runs a pipeline; throws the first command's error, if any. */
export async function execPipeline(pipeline: ReturnType<Redis['pipeline']>) {
  const results = (await pipeline.exec()) ?? [];
  const failed = results.find(([err]) => err);
  if (failed) throw failed[0];
  return results;
}

/** Deletes a settled period's live keys: its board, its team board and its league groups' boards. */
export async function deletePeriodBoards(
  redis: Redis,
  keyPrefix: string,
  period: {
    environmentId: string;
    boardKey: string;
    periodStart: number;
    groups: readonly { tier: number; groupNo: number }[];
  },
): Promise<void> {
  const { environmentId, boardKey, periodStart } = period;
  await redis.del(
    periodBoardKey(keyPrefix, environmentId, boardKey, periodStart),
    teamBoardKey(keyPrefix, environmentId, boardKey, periodStart),
    ...period.groups.map((g) =>
      leagueGroupKey(keyPrefix, environmentId, boardKey, periodStart, g.tier, g.groupNo),
    ),
  );
}
