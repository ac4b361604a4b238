-- Up Migration
-- What is still to be mirrored to Redis is kept per consumer transaction (one ticket row listing the
-- score rows it changed) instead of a flag on every score row: a score update then changes no
-- indexed column (a HOT update, no index writes) and is not written a second time to clear a flag.
CREATE TABLE board_mirror_tickets (
  ticket_id       bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  created_at      timestamptz NOT NULL DEFAULT now(),
  environment_ids uuid[]        NOT NULL,
  board_keys      text[]        NOT NULL,
  period_starts   timestamptz[] NOT NULL,
  player_ids      text[]        NOT NULL
);
CREATE INDEX board_mirror_tickets_created ON board_mirror_tickets (created_at);

-- Rows still pending become one ticket, so the sweeper mirrors them after the upgrade.
INSERT INTO board_mirror_tickets (environment_ids, board_keys, period_starts, player_ids)
SELECT array_agg(environment_id), array_agg(board_key), array_agg(period_start), array_agg(player_id)
FROM board_scores WHERE mirror_pending HAVING count(*) > 0;

DROP INDEX board_scores_mirror_pending;
ALTER TABLE board_scores DROP COLUMN mirror_pending;
-- Room on each page for the new version of an updated row (HOT updates stay on their page).
ALTER TABLE board_scores SET (fillfactor = 85);

-- Down Migration
ALTER TABLE board_scores RESET (fillfactor);
ALTER TABLE board_scores ADD COLUMN mirror_pending boolean NOT NULL DEFAULT false;
CREATE INDEX board_scores_mirror_pending ON board_scores (updated_at) WHERE mirror_pending;
DROP TABLE board_mirror_tickets;
