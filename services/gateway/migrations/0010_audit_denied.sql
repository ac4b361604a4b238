-- Up Migration
-- Writes refused for lack of permission are recorded too, with the refusal's problem code.
ALTER TABLE audit_log
  ADD COLUMN outcome text NOT NULL DEFAULT 'allowed' CHECK (outcome IN ('allowed', 'denied')),
  ADD COLUMN refusal text;

-- Down Migration
ALTER TABLE audit_log DROP COLUMN refusal, DROP COLUMN outcome;
