-- Up Migration
-- A token that changes with every write of a player's row: the consumer keeps decoded rows in
-- memory and reloads only those whose token moved (another writer, or a rolled-back write of its own).
ALTER TABLE player_progress ADD COLUMN revision uuid NOT NULL DEFAULT gen_random_uuid();

-- Down Migration
ALTER TABLE player_progress DROP COLUMN revision;
