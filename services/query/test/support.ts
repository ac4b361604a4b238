import type { AcceptedEvent } from '@engage/contracts';
import type { Redis } from '@engage/redis';
import { eventCountBoardKey } from '../src/mirror/keys.ts';

export const EVENT_KEYS = ['level_completed', 'purchase'];

export type Board = Record<string, number>;

/** What the boards must hold: per event key, each player's count of it. */
export function expectedBoards(events: AcceptedEvent[]): Record<string, Board> {
  const boards: Record<string, Board> = {};
  for (const e of events) addToBoard(boards, e.eventKey, e.playerId, 1);
  return boards;
}

export async function readBoards(
  redis: Redis,
  prefix: string,
  environmentId: string,
): Promise<Record<string, Board>> {
  const boards: Record<string, Board> = {};
  for (const eventKey of EVENT_KEYS) {
    const flat = await redis.zrange(
      eventCountBoardKey(prefix, environmentId, eventKey),
      '0',
      '-1',
      'WITHSCORES',
    );
    if (flat.length === 0) continue;
    const board: Board = {};
    for (let i = 0; i < flat.length; i += 2) board[flat[i]!] = Number(flat[i + 1]);
    boards[eventKey] = board;
  }
  return boards;
}

/** Loses this test's keys only: other tests share the Redis server. */
export async function loseRedisKeys(redis: Redis, prefix: string): Promise<void> {
  let cursor = '0';
  do {
    const [nextCursor, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
    if (keys.length > 0) await redis.del(...keys);
    cursor = nextCursor;
  } while (cursor !== '0');
}

export function addToBoard(boards: Record<string, Board>, eventKey: string, playerId: string, count: number) {
  const board = boards[eventKey] ?? {};
  board[playerId] = (board[playerId] ?? 0) + count;
  boards[eventKey] = board;
}
