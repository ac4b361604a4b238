import type { Logger } from '@engage/kit';
import type { Pool } from '@engage/postgres';
import { closeMirrorTickets } from '../../store/mirror-tickets.ts';

/**
 * Closes the consumer's mirrored tickets off its path: `close` returns at once, and the tickets
 * closed while a delete is under way go together in the next one. A close that fails (or is lost
 * in a crash) only leaves its ticket to the sweeper, which mirrors the same rows again.
 */
export class TicketCloser {
  private readonly pool: Pool;
  private readonly log: Logger;
  private waiting: string[] = [];
  private running: Promise<void> | undefined;

  constructor(pool: Pool, log: Logger) {
    this.pool = pool;
    this.log = log;
  }

  close(ticketIds: readonly string[]): void {
    if (ticketIds.length === 0) return;
    this.waiting.push(...ticketIds);
    this.running ??= this.drain();
  }

  /** Resolves once every ticket handed to `close` so far was deleted (or failed to be). */
  async idle(): Promise<void> {
    await this.running;
  }

  private async drain(): Promise<void> {
    while (this.waiting.length > 0) {
      const ticketIds = this.waiting;
      this.waiting = [];
      try {
        await closeMirrorTickets(this.pool, ticketIds);
      } catch (err) {
        this.log.warn({ err }, 'closing mirrored tickets failed; the sweeper will mirror them again');
      }
    }
    this.running = undefined;
  }
}
