-- Up Migration
-- The per-event-key counts are no longer mirrored to Redis (leaderboards with a Count aggregation
-- took that role, with their own mirror state on board_scores).
DROP INDEX player_event_counts_mirror_pending;
ALTER TABLE player_event_counts DROP COLUMN mirror_pending;

-- Down Migration
ALTER TABLE player_event_counts ADD COLUMN mirror_pending boolean NOT NULL DEFAULT false;
CREATE INDEX player_event_counts_mirror_pending ON player_event_counts (updated_at) WHERE mirror_pending;
