import { readFileSync } from 'node:fs';
import type { Redis } from '@engage/redis';

const READ_SCRIPT = readFileSync(new URL('./read-script.lua', import.meta.url), 'utf8');

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

type ScriptReply = [number, string[], number, string, number, string[], string[], string[]];

/** Registers the read script on a client (EVALSHA, loaded on first use). */
export function defineReadScript(redis: Redis): void {
  if (!('readLeaderboard' in redis))
    redis.defineCommand('readLeaderboard', { numberOfKeys: 3, lua: READ_SCRIPT });
}

/** Runs the read script; undefined when the environment's boards are not mirrored (rebuild first). */
export async function readLiveBoard(redis: Redis, req: LiveReadRequest): Promise<LiveBoardRead | undefined> {
  const run = (redis as unknown as Record<string, (...args: string[]) => Promise<ScriptReply | null>>)
    .readLeaderboard!;
  const reply = await run.call(
    redis,
    req.boardKey,
    req.namesKey,
    req.markerKey,
    String(req.top),
    String(req.around),
    req.me ?? '',
    req.withNames ? '1' : '0',
    ...req.named,
  );
  if (!reply) return undefined;
  const [participants, top, meRank, meScore, aroundStart, around, named, names] = reply;
  let nameIndex = 0;
  const nextName = () => (req.withNames ? names[nameIndex++] || null : null);
  const rows = (flat: string[], start: number) => {
    const out: LiveRow[] = [];
    for (let i = 0; i < flat.length; i += 2) {
      out.push({
        member: flat[i]!,
        position: start + i / 2,
        rankScore: Number(flat[i + 1]),
        displayName: nextName(),
      });
    }
    return out;
  };
  const topRows = rows(top, 0);
  const aroundRows = rows(around, aroundStart);
  const namedRows = rows(named, -1);
  const me =
    req.me !== null && meRank >= 0
      ? { member: req.me, position: meRank, rankScore: Number(meScore), displayName: nextName() }
      : null;
  return { participants, top: topRows, around: aroundRows, me, named: namedRows };
}
