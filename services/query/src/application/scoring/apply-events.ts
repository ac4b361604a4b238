import type { AcceptedEvent } from '@engage/contracts';
import type { ApplyBatch } from '@engage/kafka';
import { tallyEvents } from '../../domain/tally.ts';
import { closeMirrorTickets } from '../../store/mirror-tickets.ts';
import { addTallies } from '../../store/totals.ts';
import { type BoardMirrorDeps, mirrorDisplayNames, mirrorScores } from './mirror.ts';
import { type ScoredBatch, scoreEvents } from './score-events.ts';
import type { ScoringMemory } from './scoring-memory.ts';
import type { TicketCloser } from './ticket-closer.ts';

/**
 * Adds one partition batch to the durable totals and board scores inside the consumer's
 * transaction, with mirror tickets listing the rows Redis is to receive after the commit (opened by
 * the score upsert itself); answers what it scored, for the mirror. `memory`: what the consumer
 * remembers of definitions and periods.
 */
export async function applyAcceptedEvents(
  { client, records }: ApplyBatch<AcceptedEvent>,
  memory?: ScoringMemory,
): Promise<ScoredBatch> {
  const events = records.map((r) => r.value);
  // Independent rows: on a pipelining pool the totals upsert and the first scoring statement are
  // written together (one round trip less); on another they run one after the other.
  const [, scored] = await Promise.all([
    addTallies(client, tallyEvents(events)),
    scoreEvents(client, events, memory),
  ]);
  return scored;
}

/**
 * After the commit: mirror the batch's scores into Redis with the values Postgres now holds, then
 * close its tickets (`closer`: the consumer's, which does it off its path; else before returning).
 * A failure here loses nothing: the tickets stay open and the sweeper mirrors them.
 */
export async function mirrorAppliedEvents(
  deps: BoardMirrorDeps,
  scored: ScoredBatch,
  closer?: TicketCloser,
): Promise<void> {
  try {
    await mirrorScores(deps, scored.rows);
    await mirrorDisplayNames(deps, scored.names);
    if (closer) closer.close(scored.ticketIds);
    else await closeMirrorTickets(deps.pool, scored.ticketIds);
  } catch (err) {
    deps.log.warn({ err }, 'mirroring to Redis failed; the sweeper will retry');
  }
}
