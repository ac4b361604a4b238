import type { AcceptedEvent } from '@engage/contracts';
import { LeaderboardDefinitionSchema } from '@engage/contracts/environment/leaderboards.ts';
import type { ConsumedRecord } from '@engage/kafka';
import { type Pool, withTransaction } from '@engage/postgres';
import type { Redis } from '@engage/redis';
import { decodeRankScore } from '../src/domain/rank-score.ts';
import { replaceDefinitions } from '../src/store/definitions.ts';
import { periodBoardKey } from '../src/store/redis/keys.ts';

/** The events as records of partition 0 at offsets 0, 1, …, as the consumer hands them on. */
export const consumedRecords = (events: AcceptedEvent[]): ConsumedRecord<AcceptedEvent>[] =>
  events.map((value, i) => ({
    partition: 0,
    offset: String(i),
    key: value.playerId,
    value,
    headers: {},
    timestamp: '0',
    raw: Buffer.alloc(0),
  }));

export const EVENT_KEYS = ['level_completed', 'purchase'];

/** One Count leaderboard per event key, keyed like the event: the boards the tests compare. */
export async function defineCountBoards(pool: Pool, environmentId: string): Promise<void> {
  const boards = EVENT_KEYS.map((key) =>
    LeaderboardDefinitionSchema.parse({
      key,
      name: key,
      scoreSource: { type: 'Event', event: key },
      aggregation: 'Count',
    }),
  );
  await withTransaction(pool, (client) => replaceDefinitions(client, environmentId, boards));
}

/** The durable scores of the count boards. */
export async function storedBoards(pool: Pool, environmentId: string): Promise<Record<string, Board>> {
  const { rows } = await pool.query<{ board_key: string; player_id: string; score: string }>(
    'SELECT board_key, player_id, score::text FROM board_scores WHERE environment_id = $1',
    [environmentId],
  );
  const boards: Record<string, Board> = {};
  for (const r of rows) addToBoard(boards, r.board_key, r.player_id, Number(r.score));
  return boards;
}

export type Board = Record<string, number>;

/** What the count boards must hold: per event key, each player's count of it. */
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
    const board = await liveBoard(redis, periodBoardKey(prefix, environmentId, eventKey, 0));
    if (Object.keys(board).length > 0) boards[eventKey] = board;
  }
  return boards;
}

/** One live sorted set as member → score (boards of whole numbers, highest first). */
export async function liveBoard(redis: Redis, key: string): Promise<Board> {
  const flat = await redis.zrange(key, '0', '-1', 'WITHSCORES');
  const board: Board = {};
  for (let i = 0; i < flat.length; i += 2) {
    board[flat[i]!] = decodeRankScore({ decimals: 0, lowestFirst: false }, Number(flat[i + 1]));
  }
  return board;
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
