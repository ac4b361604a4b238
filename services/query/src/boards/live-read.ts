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

/** 0: the marker is missing; null: the member is not on the board. */
type AroundReply = 0 | [rank: number, first: number, rows: string[]] | null;
type BoardCommands = {
  boardAround(board: string, marker: string, member: string, around: string): Promise<AroundReply>;
};

/**
 * Registers the around script on a client (EVAL on a connection's first use, EVALSHA after; a
 * NOSCRIPT answer makes the client send the script itself again).
 */
export function defineReadScript(redis: Redis): void {
  if (!('boardAround' in redis)) redis.defineCommand('boardAround', { numberOfKeys: 2, lua: AROUND_SCRIPT });
}

/** A board's size and top rows at one moment: what a replica may reuse for a short time. */
export interface TopSnapshot {
  participants: number;
  top: readonly LiveRow[];
}

/** Where a read takes the board's size and top rows from (Redis itself, or a short-lived cache). */
export type TopSource = (redis: Redis, boardKey: string, top: number) => Promise<TopSnapshot>;

/** Where a read takes display names from (Redis itself, or a bounded cache in front of it). */
export type NameSource = (
  redis: Redis,
  namesKey: string,
  members: readonly string[],
) => Promise<(string | null)[]>;

/** ZCARD and ZREVRANGE 0 top-1 WITHSCORES, sent together. */
export const readTop: TopSource = async (redis, boardKey, top) => {
  const [participants, flat] = await Promise.all([
    redis.zcard(boardKey),
    top > 0 ? redis.zrevrange(boardKey, 0, top - 1, 'WITHSCORES') : [],
  ]);
  return { participants, top: rows(flat, 0) };
};

/** One HMGET. */
export const readNames: NameSource = async (redis, namesKey, members) =>
  (await redis.hmget(namesKey, ...members)).map((name) => name || null);

/**
 * Reads a live board with the least Redis work: the board's size and top (`topSource`), the
 * marker and the caller's place and neighbours (a short script: the range depends on the rank) and the
 * named members' scores (ZMSCORE), sent together in one write with the display names of the caller
 * and the named members (HMGET), then the names of the other rows shown (`nameSource`: one more
 * HMGET, unless it knows them all). Every lookup is O(log N) or a hash lookup; nothing scans the
 * board. The commands are pipelined, not wrapped in MULTI (whose client-side cost was a third of a
 * read's Redis handling in Node): a score update may land between two of them, as it may between
 * two reads. Undefined when the environment's boards are not mirrored (rebuild first).
 */
export async function readLiveBoard(
  redis: Redis,
  req: LiveReadRequest,
  sources: { top: TopSource; names: NameSource } = { top: readTop, names: readNames },
): Promise<LiveBoardRead | undefined> {
  // The names of the caller and the named players are known before the board is read: asked of
  // Redis in the same round trip (no second one for them, so a cache would save nothing but argument
  // bytes), and only rows found on the board (top, neighbours) go through `sources.names`.
  const known = req.withNames ? [...new Set(req.me === null ? req.named : [req.me, ...req.named])] : [];
  const [snapshot, knownNames] = await Promise.all([
    readParts(redis, req, sources.top),
    known.length > 0 ? readNames(redis, req.namesKey, known) : [],
  ]);
  if (!snapshot) return undefined;
  if (req.withNames) {
    const names = new Map(known.map((member, i) => [member, knownNames[i] ?? null]));
    await attachNames(redis, req.namesKey, snapshot, sources.names, names);
  }
  return snapshot;
}

async function readParts(
  redis: Redis,
  req: LiveReadRequest,
  topSource: TopSource,
): Promise<LiveBoardRead | undefined> {
  // The around script checks the marker itself; a read without a caller on the board asks EXISTS.
  const [marker, head, placed, scores] = await Promise.all([
    req.me === null ? redis.exists(req.markerKey) : 1,
    topSource(redis, req.boardKey, req.top),
    req.me !== null
      ? (redis as unknown as BoardCommands).boardAround(
          req.boardKey,
          req.markerKey,
          req.me,
          String(req.around),
        )
      : null,
    req.named.length > 0 ? redis.zmscore(req.boardKey, ...req.named) : [],
  ]);
  if (marker === 0 || placed === 0) return undefined;
  const window = placed ? rows(placed[2], placed[1]) : [];
  const me = window.find((r) => r.position === placed?.[0]) ?? null;
  const named: LiveRow[] = [];
  req.named.forEach((member, i) => {
    const score = scores[i];
    if (score != null) named.push({ member, position: -1, rankScore: Number(score), displayName: null });
  });
  // Copies: a snapshot may be shared by concurrent reads, and names are attached to these rows.
  const top = head.top.map((r) => ({ ...r }));
  return { participants: head.participants, top, around: req.around > 0 ? window : [], me, named };
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

/** The names of the rows the answer shows, each member not in `names` yet asked once. */
async function attachNames(
  redis: Redis,
  namesKey: string,
  read: LiveBoardRead,
  source: NameSource,
  names: Map<string, string | null>,
): Promise<void> {
  const shown = [...read.top, ...read.around, ...read.named, ...(read.me ? [read.me] : [])];
  const members = [...new Set(shown.map((r) => r.member).filter((m) => !names.has(m)))];
  if (members.length > 0) {
    const found = await source(redis, namesKey, members);
    members.forEach((member, i) => {
      names.set(member, found[i] ?? null);
    });
  }
  for (const row of shown) row.displayName = names.get(row.member) ?? null;
}
