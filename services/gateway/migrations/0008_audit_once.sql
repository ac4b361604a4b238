-- Up Migration
-- A change made in another service (a support adjustment in the ledger) is recorded after it,
-- and again by its retry if that record failed: the key keeps it to one entry.
ALTER TABLE audit_log ADD COLUMN once_key text;
CREATE UNIQUE INDEX audit_log_once ON audit_log (organization_id, once_key) WHERE once_key IS NOT NULL;

-- Down Migration
DROP INDEX audit_log_once;
ALTER TABLE audit_log DROP COLUMN once_key;
