-- Up Migration
-- Event ingestion at volume: idempotency keys of event items, usage counters for the quotas, the
-- players active each month, and the player attributes an environment defines.

-- One row per (player, event key, idempotency key). `pending` from the claim until the broker
-- acknowledged the record carrying event_id; a retry that finds a pending key produces the SAME
-- event_id again (see docs/api.md). Rows are kept as long as the topic keeps events (7 days).
CREATE TABLE event_idempotency_keys (
  environment_id   uuid NOT NULL,
  player_id        text NOT NULL,
  event_key        text NOT NULL,
  idempotency_key  text NOT NULL CHECK (char_length(idempotency_key) BETWEEN 1 AND 200),
  event_id         uuid NOT NULL,
  state            text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'committed')),
  claimed_at       timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (environment_id, player_id, event_key, idempotency_key)
);
CREATE INDEX event_idempotency_keys_by_age ON event_idempotency_keys (claimed_at);

-- Exact quota counters. scope_id is the environment (Sandbox limits) or the organization (the
-- Live cap on monthly active players); period is the UTC day or the first day of the UTC month.
CREATE TABLE usage_counters (
  scope_id   uuid NOT NULL,
  metric     text NOT NULL CHECK (metric IN ('monthly_active_players', 'daily_events')),
  period     date NOT NULL,
  value      integer NOT NULL DEFAULT 0 CHECK (value >= 0),
  PRIMARY KEY (scope_id, metric, period)
);

-- Players seen (an event or any call naming them) in a UTC month: the monthly active players.
CREATE TABLE monthly_active_players (
  environment_id   uuid NOT NULL,
  month            date NOT NULL,
  external_id      text NOT NULL,
  PRIMARY KEY (environment_id, month, external_id)
);

-- Section `playerAttributes` of the environment file.
CREATE TABLE player_attribute_definitions (
  environment_id   uuid NOT NULL REFERENCES environments,
  attribute_key    text NOT NULL,
  type             text NOT NULL CHECK (type IN ('string', 'number', 'boolean', 'dateTime')),
  active           boolean NOT NULL DEFAULT true,
  description      text,
  created_at       timestamptz NOT NULL DEFAULT now(),
  updated_at       timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (environment_id, attribute_key)
);

-- Down Migration
DROP TABLE player_attribute_definitions;
DROP TABLE monthly_active_players;
DROP TABLE usage_counters;
DROP TABLE event_idempotency_keys;
