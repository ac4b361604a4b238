-- Up Migration

-- Reward grants the ledger could not apply are now kept in the shared dead_letters table, as every
-- consumer's are (docs/operating.md#dead-letters). The rows kept so far move there, and
-- reward_grant_dead_letters stays as a view of the consumer's letters, so queries and updates of
-- `replayed_at` written against it go on working.
INSERT INTO dead_letters (source, topic, partition, "offset", record_key, raw, reason, error, created_at, replayed_at)
-- The old table kept no reason, nor the group (whose name has the deployment's topic prefix).
SELECT 'engage-ledger', topic, partition, "offset", convert_to(record_key, 'UTF8'), raw, 'unapplicable', error,
       created_at, replayed_at
FROM reward_grant_dead_letters ORDER BY id;
DROP TABLE reward_grant_dead_letters;
CREATE VIEW reward_grant_dead_letters AS
  SELECT id, topic, partition, "offset", encode(record_key, 'escape') AS record_key, raw, error, created_at,
         replayed_at
  FROM dead_letters WHERE source <> 'outbox';

-- Down Migration
DROP VIEW reward_grant_dead_letters;
CREATE TABLE reward_grant_dead_letters (
  id           bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  topic        text        NOT NULL,
  partition    integer     NOT NULL,
  "offset"     bigint      NOT NULL,
  record_key   text        NOT NULL,
  raw          bytea,
  error        text        NOT NULL,
  created_at   timestamptz NOT NULL DEFAULT now(),
  replayed_at  timestamptz,
  UNIQUE (topic, partition, "offset")
);
