-- Up Migration
-- A write batch's statement is sent together with its COMMIT (one round trip), so its check that
-- every balance and counter it updated still held the value the batch read and locked is made
-- inside the statement: false raises, and the transaction rolls back before the COMMIT runs.
CREATE FUNCTION batch_written_as_read(written_as_read boolean) RETURNS boolean
LANGUAGE plpgsql VOLATILE AS $$
BEGIN
  IF NOT written_as_read THEN
    RAISE EXCEPTION 'a balance or counter changed after the batch read and locked it';
  END IF;
  RETURN true;
END
$$;

-- Down Migration
DROP FUNCTION batch_written_as_read(boolean);
