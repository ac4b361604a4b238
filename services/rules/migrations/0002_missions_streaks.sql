-- Up Migration
-- The rules of an environment, as applied from its environment file (sections missions,
-- missionCollections, streaks). One row per item; `version` counts the item's edits.
CREATE TABLE definitions (
  environment_id uuid        NOT NULL,
  section        text        NOT NULL CHECK (section IN ('missions', 'missionCollections', 'streaks')),
  key            text        NOT NULL,
  position       integer     NOT NULL,
  definition     jsonb       NOT NULL,
  version        integer     NOT NULL DEFAULT 1,
  -- Stable id of a collection (collectionId), derived once when the item is first defined.
  item_id        uuid        NOT NULL,
  created_at     timestamptz NOT NULL DEFAULT now(),
  updated_at     timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (environment_id, section, key)
);

-- Bumped by every apply that changes something: readers reload an environment's rules when it moves.
CREATE TABLE definition_versions (
  environment_id uuid   PRIMARY KEY,
  version        bigint NOT NULL
);

-- One row per player with missions or streaks: the mission entries (by mission key) and streak
-- records (by streak key), each a JSON document read and written whole by the consumer and the reads.
CREATE TABLE player_progress (
  environment_id uuid        NOT NULL,
  player_id      text        NOT NULL,
  missions       jsonb       NOT NULL DEFAULT '{}',
  streaks        jsonb       NOT NULL DEFAULT '{}',
  updated_at     timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (environment_id, player_id)
);

-- Down Migration
DROP TABLE player_progress;
DROP TABLE definition_versions;
DROP TABLE definitions;
