-- Up Migration
-- Records a consumer could not apply, and outbox rows the relay could not publish, after bounded
-- retries: kept with their bytes and the error, in the transaction that moves past them, so one bad
-- record never stalls its partition or the outbox. `source` is the consumer group, or 'outbox' for a
-- relay row. An operator inspects them and replays them (docs/operating.md#dead-letters).
CREATE TABLE dead_letters (
  id          bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  source      text        NOT NULL,
  topic       text        NOT NULL,
  -- The partition and offset the record was read from; null for an outbox row (never published).
  partition   integer,
  "offset"    bigint,
  -- The key's bytes as they were (text columns refuse some bytes a record can carry, such as NUL).
  record_key  bytea,
  raw         bytea,
  headers     jsonb       NOT NULL DEFAULT '{}',
  reason      text        NOT NULL CHECK (reason IN ('undecodable', 'unapplicable', 'unpublishable')),
  error       text        NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  -- Set when an operator published the record again (the replay tool).
  replayed_at timestamptz,
  UNIQUE (source, topic, partition, "offset")
);
CREATE INDEX dead_letters_waiting ON dead_letters (created_at) WHERE replayed_at IS NULL;

-- Down Migration
DROP TABLE dead_letters;
