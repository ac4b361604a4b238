import { type BoardMirrorDeps, mirrorScores } from '../boards/mirror.ts';
import { pendingScores } from '../store/scores.ts';
import { pendingCounts } from '../store/totals.ts';
import { type MirrorDeps, mirrorCounts } from './counts-mirror.ts';

/** Rows younger than this are left to the afterCommit of the process that wrote them. */
const GRACE_MS = 5_000;
const PAGE = 500;

/**
 * Mirrors rows whose writer died between the Postgres commit and the Redis write (or found Redis
 * down), so Redis catches up with the durable record within a bounded time.
 */
export function startMirrorSweeper(
  deps: MirrorDeps & BoardMirrorDeps,
  intervalMs: number,
): { stop: () => Promise<void> } {
  let running = true;
  let wake: (() => void) | undefined;
  const loop = (async () => {
    while (running) {
      try {
        for (;;) {
          const rows = await pendingCounts(deps.pool, GRACE_MS, PAGE);
          await mirrorCounts(deps, rows);
          if (rows.length < PAGE || !running) break;
        }
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
