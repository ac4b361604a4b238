-- Up Migration
-- The largest balance is the largest Avro long the journal topic's encoder carries exactly
-- (2^53 - 2), one below what 0001 allowed.
ALTER TABLE balances ADD CONSTRAINT balances_balance_max CHECK (balance <= 9007199254740990);
ALTER TABLE journal ADD CONSTRAINT journal_balance_after_max CHECK (balance_after <= 9007199254740990);

-- Down Migration
ALTER TABLE journal DROP CONSTRAINT journal_balance_after_max;
ALTER TABLE balances DROP CONSTRAINT balances_balance_max;
