-- Up Migration
-- The consumer writes every changed player's whole document once per batch and reads it back only
-- when its cached copy is stale, and no query looks inside it: `json` (text, validated) costs
-- Postgres a fraction of parsing `jsonb`. lz4 compresses the rows above the toast threshold far
-- faster than the default pglz, and free room on each page lets an update stay on the page (HOT).
-- A Postgres built without lz4 keeps pglz: slower, not wrong.
ALTER TABLE player_progress
  ALTER COLUMN missions TYPE json USING missions::json,
  ALTER COLUMN streaks TYPE json USING streaks::json;
DO $$
BEGIN
  IF EXISTS (
    SELECT 1 FROM pg_settings WHERE name = 'default_toast_compression' AND 'lz4' = ANY (enumvals)
  ) THEN
    ALTER TABLE player_progress
      ALTER COLUMN missions SET COMPRESSION lz4,
      ALTER COLUMN streaks SET COMPRESSION lz4;
  END IF;
END
$$;
ALTER TABLE player_progress SET (fillfactor = 80);

-- Down Migration
ALTER TABLE player_progress RESET (fillfactor);
ALTER TABLE player_progress
  ALTER COLUMN missions SET COMPRESSION pglz,
  ALTER COLUMN streaks SET COMPRESSION pglz,
  ALTER COLUMN missions TYPE jsonb USING missions::jsonb,
  ALTER COLUMN streaks TYPE jsonb USING streaks::jsonb;
