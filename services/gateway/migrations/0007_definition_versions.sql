-- Up Migration
-- How many applies changed each environment's definition: the version the last one made, counted in
-- the transaction that records an apply (its audit entry and its definitions.applied.v1 record).
ALTER TABLE environments ADD COLUMN definition_version bigint NOT NULL DEFAULT 0;

-- Down Migration
ALTER TABLE environments DROP COLUMN definition_version;
