import type { Pool, PoolClient } from '@engage/postgres';
import { isoFormatter } from './iso-time.ts';

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
 * Records, inside the transaction that changed them, which score rows Redis has yet to receive. The
 * process closes the ticket once it mirrored them; if it dies first, the sweeper finds the ticket.
 */
export async function openMirrorTicket(
  client: PoolClient,
  keys: readonly ScoreKey[],
): Promise<string | null> {
  if (keys.length === 0) return null;
  const periodIso = isoFormatter();
  const { rows } = await client.query<{ ticket_id: string }>(
    `INSERT INTO board_mirror_tickets (environment_ids, board_keys, period_starts, player_ids)
     VALUES ($1::uuid[], $2::text[], $3::timestamptz[], $4::text[]) RETURNING ticket_id::text`,
    [
      keys.map((k) => k.environmentId),
      keys.map((k) => k.boardKey),
      keys.map((k) => periodIso(k.periodStart)),
      keys.map((k) => k.playerId),
    ],
  );
  return rows[0]!.ticket_id;
}

/**
 * Closes a mirrored ticket without waiting for the WAL flush (a close lost in a crash only makes the
 * sweeper mirror its rows again), in one round trip: the statement is its own transaction, and
 * `set_config(…, true)` turns synchronous_commit off for that transaction only (BEGIN, SET LOCAL and
 * COMMIT would cost three more round trips per consumer chunk).
 */
export async function closeMirrorTicket(pool: Pool, ticketId: string): Promise<void> {
  await pool.query(
    `WITH lazy AS (SELECT set_config('synchronous_commit', 'off', true))
     DELETE FROM board_mirror_tickets WHERE ticket_id = $1 AND EXISTS (SELECT FROM lazy)`,
    [ticketId],
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
