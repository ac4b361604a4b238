import type { Pool } from '@engage/postgres';

/** A score row's key: what a ticket lists. */
export interface ScoreKey {
  environmentId: string;
  boardKey: string;
  periodStart: number;
  playerId: string;
}

export interface MirrorTicket {
  ticketId: string;
  keys: ScoreKey[];
}

/**
 * A data-modifying CTE that records, in the statement that changes them, which score rows Redis has
 * yet to receive: one ticket listing every row of `source` (a CTE with environment_id, board_key,
 * period_start and player_id), none when it is empty. Built in Postgres from the changed rows, so the
 * keys are not sent a second time. The process closes the ticket once it mirrored them; if it dies
 * first, the sweeper finds the ticket.
 */
export const openTicketFor = (source: string) =>
  `INSERT INTO board_mirror_tickets (environment_ids, board_keys, period_starts, player_ids)
   SELECT array_agg(environment_id), array_agg(board_key), array_agg(period_start), array_agg(player_id)
   FROM ${source} HAVING count(*) > 0
   RETURNING ticket_id`;

/**
 * Closes mirrored tickets without waiting for the WAL flush (a close lost in a crash only makes the
 * sweeper mirror their rows again), in one round trip: the statement is its own transaction, and
 * `set_config(…, true)` turns synchronous_commit off for that transaction only (BEGIN, SET LOCAL and
 * COMMIT would cost three more round trips).
 */
export async function closeMirrorTickets(pool: Pool, ticketIds: readonly string[]): Promise<void> {
  if (ticketIds.length === 0) return;
  await pool.query(
    `WITH lazy AS (SELECT set_config('synchronous_commit', 'off', true))
     DELETE FROM board_mirror_tickets WHERE ticket_id = ANY($1::bigint[]) AND EXISTS (SELECT FROM lazy)`,
    [ticketIds],
  );
}

/** Tickets older than `graceMs`: their process died (or found Redis down) before mirroring. */
export async function dueMirrorTickets(pool: Pool, graceMs: number, limit: number): Promise<MirrorTicket[]> {
  const { rows } = await pool.query<{
    ticket_id: string;
    environment_ids: string[];
    board_keys: string[];
    period_starts: Date[];
    player_ids: string[];
  }>(
    `SELECT ticket_id::text, environment_ids, board_keys, period_starts, player_ids FROM board_mirror_tickets
     WHERE created_at < now() - make_interval(secs => $1::float8 / 1000)
     ORDER BY created_at LIMIT $2`,
    [graceMs, limit],
  );
  return rows.map((r) => ({
    ticketId: r.ticket_id,
    keys: r.player_ids.map((playerId, i) => ({
      environmentId: r.environment_ids[i]!,
      boardKey: r.board_keys[i]!,
      periodStart: r.period_starts[i]!.getTime(),
      playerId,
    })),
  }));
}
