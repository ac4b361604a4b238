import { isDeepStrictEqual } from 'node:util';
import type { LeaderboardDefinition } from '@engage/contracts/environment/leaderboards.ts';
import type { SectionItemChange } from '@engage/kit';

/** What applying `next` changes, board by board (fields: the top-level fields that differ). */
export function diffBoards(
  current: readonly LeaderboardDefinition[],
  next: readonly LeaderboardDefinition[],
): SectionItemChange[] {
  const before = new Map(current.map((b) => [b.key, b]));
  const changes: SectionItemChange[] = next.map((board) => {
    const old = before.get(board.key);
    if (!old) return { section: 'leaderboards', key: board.key, change: 'created', fields: [] };
    const fields = [...new Set([...Object.keys(old), ...Object.keys(board)])].filter(
      (f) =>
        !isDeepStrictEqual(old[f as keyof LeaderboardDefinition], board[f as keyof LeaderboardDefinition]),
    );
    return {
      section: 'leaderboards',
      key: board.key,
      change: fields.length ? 'updated' : 'unchanged',
      fields,
    };
  });
  const kept = new Set(next.map((b) => b.key));
  for (const board of current) {
    if (!kept.has(board.key))
      changes.push({ section: 'leaderboards', key: board.key, change: 'removed', fields: [] });
  }
  return changes;
}
