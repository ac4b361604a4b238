import { pendingScores } from '../store/scores.ts';
import { type BoardMirrorDeps, mirrorScores } from './mirror.ts';

/** Rows younger than this are left to the afterCommit of the process that wrote them. */
const GRACE_MS = 5_000;
const PAGE = 500;

/**
 * Mirrors scores whose writer died between the Postgres commit and the Redis write (or found Redis
 * down), so the live boards catch up with the durable record within a bounded time.
 */
export function startMirrorSweeper(deps: BoardMirrorDeps, intervalMs: number): { stop: () => Promise<void> } {
  let running = true;
  let wake: (() => void) | undefined;
  const loop = (async () => {
    while (running) {
      try {
        for (;;) {
          const rows = await pendingScores(deps.pool, GRACE_MS, PAGE);
          await mirrorScores(deps, rows);
          if (rows.length < PAGE || !running) break;
        }
      } catch (err) {
        deps.log.warn({ err }, 'mirror sweep failed; will retry');
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, intervalMs);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
  })();
  return {
    stop: async () => {
      running = false;
      wake?.();
      await loop;
    },
  };
}
