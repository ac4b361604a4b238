-- Up Migration
-- An idempotency key whose batch failed to reach the broker (the answer was a 500) is `abandoned`:
-- the next retry produces its record at once with the SAME eventId (the failed send may still have
-- landed; consumers dedupe by eventId), instead of waiting out the pending timeout.
ALTER TABLE event_idempotency_keys DROP CONSTRAINT event_idempotency_keys_state_check;
ALTER TABLE event_idempotency_keys
  ADD CONSTRAINT event_idempotency_keys_state_check CHECK (state IN ('pending', 'abandoned', 'committed'));

-- Down Migration
UPDATE event_idempotency_keys SET state = 'pending' WHERE state = 'abandoned';
ALTER TABLE event_idempotency_keys DROP CONSTRAINT event_idempotency_keys_state_check;
ALTER TABLE event_idempotency_keys
  ADD CONSTRAINT event_idempotency_keys_state_check CHECK (state IN ('pending', 'committed'));
