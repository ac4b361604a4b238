-- Up Migration
-- The next Kafka offset to apply, per consumer group and partition, written in the same transaction as
-- the effects of the records before it. A record below it has been applied and is skipped.
CREATE TABLE kafka_offsets (
  group_id    text    NOT NULL,
  topic       text    NOT NULL,
  partition   integer NOT NULL,
  next_offset bigint  NOT NULL,
  updated_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (group_id, topic, partition)
);

-- Records to publish to Kafka, written in the same transaction as the change they describe and
-- relayed afterwards, so nothing rolled back is published and nothing committed goes unpublished.
CREATE TABLE outbox (
  id         bigserial PRIMARY KEY,
  topic      text  NOT NULL,
  key        text  NOT NULL,
  value      bytea NOT NULL,
  headers    jsonb NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL DEFAULT now()
);

-- Down Migration
DROP TABLE outbox;
DROP TABLE kafka_offsets;
