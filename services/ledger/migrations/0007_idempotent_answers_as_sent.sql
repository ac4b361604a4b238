-- Up Migration
-- A replayed answer must be the stored one byte for byte. jsonb normalises an object's key order
-- (shorter keys first), so a replay came back with its fields reordered; json keeps the text as
-- written. Rows stored before this keep jsonb's order.
ALTER TABLE idempotency_keys ALTER COLUMN response_body TYPE json USING response_body::json;

-- Down Migration
ALTER TABLE idempotency_keys ALTER COLUMN response_body TYPE jsonb USING response_body::jsonb;
