-- Up Migration
-- Webhook endpoints an operator subscribes per environment. The signing secret is kept as is: it
-- signs every delivery. During a rotation overlap the previous one signs too, until it expires.
CREATE TABLE webhook_endpoints (
  webhook_id                   uuid PRIMARY KEY,
  environment_id               uuid NOT NULL REFERENCES environments ON DELETE CASCADE,
  url                          text NOT NULL,
  description                  text NOT NULL DEFAULT '',
  event_types                  text[] NOT NULL,
  rank_threshold               integer NOT NULL DEFAULT 10,
  status                       text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'paused')),
  paused_reason                text,
  paused_at                    timestamptz,
  secret                       text NOT NULL,
  previous_secret              text,
  previous_secret_expires_at   timestamptz,
  secret_rotated_at            timestamptz,
  last_delivery_at             timestamptz,
  last_status                  text CHECK (last_status IN ('delivered', 'failed')),
  consecutive_failures         integer NOT NULL DEFAULT 0,
  created_at                   timestamptz NOT NULL DEFAULT now(),
  updated_at                   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX webhook_endpoints_environment ON webhook_endpoints (environment_id, created_at);

-- One row per (endpoint, change): its id is the `webhook-id` header. `seq` orders one chain (an
-- endpoint's deliveries for one player, `order_key`): only the oldest pending one of a chain is sent.
-- `source_id` (the change's own id and type) keeps a change to one delivery per endpoint.
CREATE TABLE webhook_deliveries (
  delivery_id        uuid PRIMARY KEY,
  webhook_id         uuid NOT NULL REFERENCES webhook_endpoints ON DELETE CASCADE,
  seq                bigserial NOT NULL,
  event_type         text NOT NULL,
  player_id          text,
  order_key          text NOT NULL,
  source_id          text NOT NULL,
  payload            jsonb NOT NULL,
  status             text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'failed')),
  attempts           integer NOT NULL DEFAULT 0,
  next_attempt_at    timestamptz NOT NULL DEFAULT now(),
  lease_until        timestamptz,
  last_attempt_at    timestamptz,
  response_status    integer,
  response_time_ms   integer,
  last_error         text,
  created_at         timestamptz NOT NULL DEFAULT now(),
  UNIQUE (webhook_id, source_id)
);
CREATE INDEX webhook_deliveries_chain ON webhook_deliveries (webhook_id, order_key, seq) WHERE status = 'pending';
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE status = 'pending';
CREATE INDEX webhook_deliveries_listing ON webhook_deliveries (webhook_id, created_at DESC, delivery_id DESC);
CREATE INDEX webhook_deliveries_finished ON webhook_deliveries (created_at) WHERE status <> 'pending';

-- Down Migration
DROP TABLE webhook_deliveries;
DROP TABLE webhook_endpoints;
