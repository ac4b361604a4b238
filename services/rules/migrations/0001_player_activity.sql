-- Up Migration
-- One row per player of an environment: how many accepted events the rules engine has applied to
-- the player, and which one came last. Every later rule (missions, streaks) keeps its own per-player
-- state beside this row, written in the same consumer transaction.
CREATE TABLE player_activity (
  environment_id        uuid        NOT NULL,
  player_id             text        NOT NULL,
  events_applied        bigint      NOT NULL CHECK (events_applied >= 0),
  last_event_id         uuid        NOT NULL,
  last_offset           bigint      NOT NULL,
  last_occurred_at      timestamptz NOT NULL,
  -- sha256 chain over the ids of the applied events, in the order applied: two runs that applied the
  -- same events in the same order have the same digest (audits, replays, fault tests).
  applied_events_digest text        NOT NULL,
  updated_at            timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (environment_id, player_id)
);

-- Down Migration
DROP TABLE player_activity;
