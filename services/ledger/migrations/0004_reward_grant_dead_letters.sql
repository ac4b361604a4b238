-- Up Migration

-- Reward-grant records the ledger cannot apply: undecodable with the topic's schema, or decoded but
-- malformed (an id that is not a UUID, a negative amount, ...). Stored in the transaction that moves
-- the partition's offset past them, so the partition goes on and nothing is lost. See docs/ledger.md
-- and docs/operating.md for inspecting and replaying them.
CREATE TABLE reward_grant_dead_letters (
  id           bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  topic        text        NOT NULL,
  partition    integer     NOT NULL,
  "offset"     bigint      NOT NULL,
  record_key   text        NOT NULL,
  raw          bytea,
  error        text        NOT NULL,
  created_at   timestamptz NOT NULL DEFAULT now(),
  -- Set when an operator published the record again (`engage` replay script, docs/operating.md).
  replayed_at  timestamptz,
  UNIQUE (topic, partition, "offset")
);

-- Down Migration
DROP TABLE reward_grant_dead_letters;
