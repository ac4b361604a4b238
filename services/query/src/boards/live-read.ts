import { readFileSync } from 'node:fs';
import type { Redis } from '@engage/redis';

const AROUND_SCRIPT = readFileSync(new URL('./around-script.lua', import.meta.url), 'utf8');

export interface LiveRow {
  member: string;
  /** 0-based position on the board. */
  position: number;
  rankScore: number;
  displayName: string | null;
}

export interface LiveBoardRead {
  participants: number;
  top: LiveRow[];
  around: LiveRow[];
  me: LiveRow | null;
  /** Named members that are on the board (unordered; rank them among themselves). */
  named: LiveRow[];
}

export interface LiveReadRequest {
  boardKey: string;
  namesKey: string;
  markerKey: string;
  top: number;
  around: number;
  me: string | null;
  named: readonly string[];
  withNames: boolean;
}

type AroundReply = [rank: number, first: number, rows: string[]] | null;
type BoardCommands = {
  boardAround(board: string, member: string, around: string): Promise<AroundReply>;
};

/**
 * Registers the around script on a client (EVAL on a connection's first use, EVALSHA after; a
 * NOSCRIPT answer makes the client send the script itself again).
 */
export function defineReadScript(redis: Redis): void {
  if (!('boardAround' in redis)) redis.defineCommand('boardAround', { numberOfKeys: 1, lua: AROUND_SCRIPT });
}

/**
 * Reads a live board with the least Redis work: the marker, ZCARD, the top, the caller's place and
 * neighbours (a four-line script: the range depends on the rank) and the named members' scores
 * (ZMSCORE), sent together in one write, then one HMGET of the display names of the rows shown.
 * Every lookup is O(log N) or a hash lookup; nothing scans the board. The commands are pipelined,
 * not wrapped in MULTI (whose client-side cost was a third of a read's Redis handling in Node): a
 * score update may land between two of them, as it may between two reads. Undefined when the
 * environment's boards are not mirrored (rebuild first).
 */
export async function readLiveBoard(redis: Redis, req: LiveReadRequest): Promise<LiveBoardRead | undefined> {
  const snapshot = await readParts(redis, req);
  if (!snapshot) return undefined;
  if (req.withNames) await attachNames(redis, req.namesKey, snapshot);
  return snapshot;
}

async function readParts(redis: Redis, req: LiveReadRequest): Promise<LiveBoardRead | undefined> {
  const [marker, participants, topFlat, placed, scores] = await Promise.all([
    redis.exists(req.markerKey),
    redis.zcard(req.boardKey),
    req.top > 0 ? redis.zrevrange(req.boardKey, 0, req.top - 1, 'WITHSCORES') : [],
    req.me !== null
      ? (redis as unknown as BoardCommands).boardAround(req.boardKey, req.me, String(req.around))
      : null,
    req.named.length > 0 ? redis.zmscore(req.boardKey, ...req.named) : [],
  ]);
  if (marker === 0) return undefined;
  const window = placed ? rows(placed[2], placed[1]) : [];
  const me = window.find((r) => r.position === placed?.[0]) ?? null;
  const named: LiveRow[] = [];
  req.named.forEach((member, i) => {
    const score = scores[i];
    if (score != null) named.push({ member, position: -1, rankScore: Number(score), displayName: null });
  });
  return { participants, top: rows(topFlat, 0), around: req.around > 0 ? window : [], me, named };
}

function rows(flat: readonly string[], first: number): LiveRow[] {
  const out: LiveRow[] = [];
  for (let i = 0; i < flat.length; i += 2) {
    out.push({
      member: flat[i]!,
      position: first + i / 2,
      rankScore: Number(flat[i + 1]),
      displayName: null,
    });
  }
  return out;
}

/** One HMGET for the names of the rows the answer shows (each member asked once). */
async function attachNames(redis: Redis, namesKey: string, read: LiveBoardRead): Promise<void> {
  const shown = [...read.top, ...read.around, ...read.named, ...(read.me ? [read.me] : [])];
  const members = [...new Set(shown.map((r) => r.member))];
  if (members.length === 0) return;
  const found = await redis.hmget(namesKey, ...members);
  const names = new Map(members.map((m, i) => [m, found[i] || null]));
  for (const row of shown) row.displayName = names.get(row.member) ?? null;
}
