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
type AroundReply = 0 | [rank: number, first: number, rows: string[], names?: (string | null)[]] | null;
type BoardCommands = {
  boardAround(
    board: string,
    marker: string,
    names: string,
    member: string,
    around: string,
    withNames: '0' | '1',
  ): Promise<AroundReply>;
};

/**
 * Registers the around script on a client (EVAL on a connection's first use, EVALSHA after; a
 * NOSCRIPT answer makes the client send the script itself again).
 */
export function defineReadScript(redis: Redis): void {
  if (!('boardAround' in redis)) redis.defineCommand('boardAround', { numberOfKeys: 3, lua: AROUND_SCRIPT });
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
 * Reads a live board with the least Redis work, in one pipelined write: the board's size and top
 * (`topSource`), a short script for the marker, the caller's place, neighbours and their names (the
 * range depends on the rank; a PlayerIds read without neighbours asks EXISTS and ZREVRANK instead),
 * the named members' scores (ZMSCORE) and names (HMGET: known before the board is read). Only top
 * rows whose names `nameSource` does not hold need a second round trip (one HMGET). Every lookup is O(log N) or a hash lookup; nothing scans the board. The commands are
 * pipelined, not wrapped in MULTI (whose client-side cost in Node is a large part of a read's Redis
 * handling): a score update may land between two of them, as it may between two reads. Undefined when
 * the environment's boards are not mirrored (rebuild first).
 */
export async function readLiveBoard(
  redis: Redis,
  req: LiveReadRequest,
  sources: { top: TopSource; names: NameSource } = { top: readTop, names: readNames },
): Promise<LiveBoardRead | undefined> {
  const parts = await readParts(redis, req, sources.top);
  if (!parts) return undefined;
  if (req.withNames) await attachNames(redis, req.namesKey, parts.read, sources.names, parts.names);
  return parts.read;
}

/** The board's parts, and the names already read with them (the caller's range, the named). */
async function readParts(
  redis: Redis,
  req: LiveReadRequest,
  topSource: TopSource,
): Promise<{ read: LiveBoardRead; names: Map<string, string | null> } | undefined> {
  const named = req.named;
  // The caller among the named (a PlayerIds read) without neighbours: their score and name come
  // with the named players', so only the rank is asked (ZREVRANK and EXISTS cost Redis less than
  // the script). Otherwise the around script reads the caller's place in one command.
  const byScript = req.me !== null && (req.around > 0 || !named.includes(req.me));
  const [marker, head, placed, rank, scores, namedNames] = await Promise.all([
    byScript ? 1 : redis.exists(req.markerKey),
    topSource(redis, req.boardKey, req.top),
    byScript
      ? (redis as unknown as BoardCommands).boardAround(
          req.boardKey,
          req.markerKey,
          req.namesKey,
          req.me!,
          String(req.around),
          req.withNames ? '1' : '0',
        )
      : null,
    req.me !== null && !byScript ? redis.zrevrank(req.boardKey, req.me) : null,
    named.length > 0 ? redis.zmscore(req.boardKey, ...named) : [],
    req.withNames && named.length > 0 ? readNames(redis, req.namesKey, named) : [],
  ]);
  if (marker === 0 || placed === 0) return undefined;
  const names = new Map<string, string | null>();
  named.forEach((member, i) => {
    names.set(member, namedNames[i] ?? null);
  });
  const window = placed ? rows(placed[2], placed[1]) : [];
  if (placed?.[3]) {
    window.forEach((row, i) => {
      names.set(row.member, placed[3]?.[i] || null);
    });
  }
  let me = window.find((r) => r.position === placed?.[0]) ?? null;
  if (!byScript && rank !== null) {
    const score = scores[named.indexOf(req.me!)];
    if (score != null) me = { member: req.me!, position: rank, rankScore: Number(score), displayName: null };
  }
  const onBoard: LiveRow[] = [];
  named.forEach((member, i) => {
    const score = scores[i];
    if (score != null) onBoard.push({ member, position: -1, rankScore: Number(score), displayName: null });
  });
  // Copies: a snapshot may be shared by concurrent reads, and names are attached to these rows.
  const top = head.top.map((r) => ({ ...r }));
  const read = {
    participants: head.participants,
    top,
    around: req.around > 0 ? window : [],
    me,
    named: onBoard,
  };
  return { read, names };
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

/** The names of the rows the answer shows; members not in `names` yet asked once (`source`). */
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
