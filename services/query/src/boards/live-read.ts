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

/** Registers the around script on a client (EVAL on a connection's first use, EVALSHA after). */
export function defineReadScript(redis: Redis): void {
  if (!('boardAround' in redis)) redis.defineCommand('boardAround', { numberOfKeys: 1, lua: AROUND_SCRIPT });
}

/**
 * Reads a live board with the least Redis work: one MULTI (a consistent snapshot) with the marker,
 * ZCARD, the top, the caller's place and neighbours, and the named members' scores (ZMSCORE), then
 * one HMGET of the display names of the rows shown. Every lookup is O(log N) or a hash lookup;
 * nothing scans the board. Undefined when the environment's boards are not mirrored (rebuild first).
 */
export async function readLiveBoard(redis: Redis, req: LiveReadRequest): Promise<LiveBoardRead | undefined> {
  const snapshot = await readSnapshot(redis, req);
  if (!snapshot) return undefined;
  if (req.withNames) await attachNames(redis, req.namesKey, snapshot);
  return snapshot;
}

async function readSnapshot(redis: Redis, req: LiveReadRequest, retried = false) {
  const multi = redis.multi();
  multi.exists(req.markerKey);
  multi.zcard(req.boardKey);
  if (req.top > 0) multi.zrevrange(req.boardKey, 0, req.top - 1, 'WITHSCORES');
  if (req.me !== null) {
    (multi as unknown as BoardCommands).boardAround(req.boardKey, req.me, String(req.around));
  }
  if (req.named.length > 0) multi.zmscore(req.boardKey, ...req.named);
  const results = (await multi.exec()) ?? [];
  const failed = results.find(([err]) => err)?.[0];
  // A script cache flushed under a live connection: the client sends the script itself next time.
  if (failed && !retried && failed.message.includes('NOSCRIPT')) return readSnapshot(redis, req, true);
  if (failed) throw failed;
  const replies = results.map(([, value]) => value);
  let next = 0;
  const take = <T>() => replies[next++] as T;
  if (take<number>() === 0) return undefined;
  const participants = take<number>();
  const top = req.top > 0 ? rows(take<string[]>(), 0) : [];
  const placed = req.me !== null ? take<AroundReply>() : null;
  const scores = req.named.length > 0 ? take<(string | null)[]>() : [];

  const window = placed ? rows(placed[2], placed[1]) : [];
  const me = window.find((r) => r.position === placed?.[0]) ?? null;
  const named: LiveRow[] = [];
  req.named.forEach((member, i) => {
    const score = scores[i];
    if (score != null) named.push({ member, position: -1, rankScore: Number(score), displayName: null });
  });
  return { participants, top, around: req.around > 0 ? window : [], me, named };
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
