import { envKey } from '@engage/redis';

/**
 * Redis keys of live boards. Every key of an environment shares its hash tag `{env:<id>}` (one Redis
 * Cluster slot), so a read script may touch the board, the names and the marker together.
 */
const board = (boardKey: string) => encodeURIComponent(boardKey);

/** A plain board's period: member = player id. */
export function periodBoardKey(
  prefix: string,
  environmentId: string,
  boardKey: string,
  periodStart: number,
): string {
  return envKey(prefix, environmentId, 'query', 'lb', board(boardKey), String(periodStart));
}

/** One group of one tier of a league period: member = player id. */
export function leagueGroupKey(
  prefix: string,
  environmentId: string,
  boardKey: string,
  periodStart: number,
  tier: number,
  groupNo: number,
): string {
  return envKey(
    prefix,
    environmentId,
    'query',
    'lb',
    board(boardKey),
    String(periodStart),
    `t${tier}`,
    `g${groupNo}`,
  );
}

/** A team board's period: member = team key. */
export function teamBoardKey(
  prefix: string,
  environmentId: string,
  boardKey: string,
  periodStart: number,
): string {
  return envKey(prefix, environmentId, 'query', 'lb', board(boardKey), String(periodStart), 'teams');
}

/** Display names of the environment's players: hash player id → name. */
export function displayNamesKey(prefix: string, environmentId: string): string {
  return envKey(prefix, environmentId, 'query', 'names');
}

/** Present while the environment's live boards are complete; missing after Redis lost its data. */
export function boardsMarkerKey(prefix: string, environmentId: string): string {
  return envKey(prefix, environmentId, 'query', 'boards-mirrored');
}

/** Pattern of every live key of one board period (deleted once the period is settled). */
export function periodKeysPattern(
  prefix: string,
  environmentId: string,
  boardKey: string,
  periodStart: number,
): string {
  return `${periodBoardKey(prefix, environmentId, boardKey, periodStart)}*`;
}
