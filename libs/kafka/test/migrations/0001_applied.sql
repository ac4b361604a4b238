-- Up Migration
CREATE TABLE applied_records (
  group_id  text    NOT NULL,
  record_id text    NOT NULL,
  times     integer NOT NULL,
  PRIMARY KEY (group_id, record_id)
);

-- Down Migration
DROP TABLE applied_records;
