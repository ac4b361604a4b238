-- Up Migration
-- The durable record behind the live boards: per environment, player and event key, how many accepted
-- events were counted. Redis sorted sets mirror events_counted and are rebuilt from here when lost.
CREATE TABLE player_event_counts (
  environment_id uuid        NOT NULL,
  player_id      text        NOT NULL,
  event_key      text        NOT NULL,
  events_counted bigint      NOT NULL CHECK (events_counted > 0),
  last_event_id  uuid        NOT NULL,
  -- true from the commit that changed the row until Redis holds its count; a sweeper mirrors rows a
  -- crashed process left pending.
  mirror_pending boolean     NOT NULL DEFAULT true,
  updated_at     timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (environment_id, player_id, event_key)
);
CREATE INDEX player_event_counts_mirror_pending ON player_event_counts (updated_at) WHERE mirror_pending;

-- The exact sum of each numeric property of those events (decimals with 8 places, never rounded).
CREATE TABLE player_event_sums (
  environment_id uuid        NOT NULL,
  player_id      text        NOT NULL,
  event_key      text        NOT NULL,
  property       text        NOT NULL,
  total          numeric     NOT NULL,
  updated_at     timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (environment_id, player_id, event_key, property)
);

-- Down Migration
DROP TABLE player_event_sums;
DROP TABLE player_event_counts;
