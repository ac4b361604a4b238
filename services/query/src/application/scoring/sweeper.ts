import { createSleeper } from '@engage/kit';
import { closeMirrorTickets, dueMirrorTickets } from '../../store/mirror-tickets.ts';
import { readScores } from '../../store/scores.ts';
import { type BoardMirrorDeps, mirrorScores } from './mirror.ts';

/** Tickets younger than this are left to the afterCommit of the process that opened them. */
const GRACE_MS = 5_000;
const PAGE = 20;

/**
 * Mirrors the rows of tickets whose writer died between the Postgres commit and the Redis write (or
 * found Redis down), with the values Postgres holds now, so the live boards catch up with the
 * durable record within a bounded time. Rows of periods settled meanwhile are left out of Redis.
 */
export function startMirrorSweeper(deps: BoardMirrorDeps, intervalMs: number): { stop: () => Promise<void> } {
  let running = true;
  const sleeper = createSleeper();
  const loop = (async () => {
    while (running) {
      try {
        for (;;) {
          const tickets = await dueMirrorTickets(deps.pool, GRACE_MS, PAGE);
          for (const ticket of tickets) {
            await mirrorScores(deps, await readScores(deps.pool, ticket.keys, { openOnly: true }));
            await closeMirrorTickets(deps.pool, [ticket.ticketId]);
          }
          if (tickets.length < PAGE || !running) break;
        }
      } catch (err) {
        deps.log.warn({ err }, 'mirror sweep failed; will retry');
      }
      await sleeper.sleep(intervalMs);
    }
  })();
  return {
    stop: async () => {
      running = false;
      sleeper.wake();
      await loop;
    },
  };
}
