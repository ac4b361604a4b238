-- Up Migration
-- Ids of records a consumer group applied, for topics whose producer may write one record twice at
-- different offsets (the gateway re-sends an event with its eventId after a crash or a failed send).
-- Claimed in the transaction that applies the record; kept at least as long as the topic retains
-- records, then swept.
CREATE TABLE consumed_records (
  group_id   text        NOT NULL,
  record_id  text        NOT NULL,
  applied_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (group_id, record_id)
);
CREATE INDEX consumed_records_applied_at ON consumed_records (applied_at);

-- Down Migration
DROP TABLE consumed_records;
