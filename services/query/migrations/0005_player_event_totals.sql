-- Up Migration
-- The per-event-key count and the property sums in one row: a consumer chunk writes one row per
-- player and event key instead of two (one statement, one heap tuple and one index entry less per
-- row). Sums stay exact: JSON numbers in jsonb are numeric. Room is left on each page (fillfactor)
-- so that updating a row is a HOT update (no index write), as on board_scores.
CREATE TABLE player_event_totals (
  environment_id uuid        NOT NULL,
  player_id      text        NOT NULL,
  event_key      text        NOT NULL,
  events_counted bigint      NOT NULL CHECK (events_counted > 0),
  last_event_id  uuid        NOT NULL,
  -- property -> exact sum of that numeric property
  sums           jsonb       NOT NULL DEFAULT '{}',
  updated_at     timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (environment_id, player_id, event_key)
) WITH (fillfactor = 85);

INSERT INTO player_event_totals (environment_id, player_id, event_key, events_counted, last_event_id, sums, updated_at)
SELECT c.environment_id, c.player_id, c.event_key, c.events_counted, c.last_event_id,
  coalesce(s.sums, '{}'), c.updated_at
FROM player_event_counts c
LEFT JOIN (
  SELECT environment_id, player_id, event_key, jsonb_object_agg(property, total) AS sums
  FROM player_event_sums GROUP BY environment_id, player_id, event_key
) s USING (environment_id, player_id, event_key);

DROP TABLE player_event_sums;
DROP TABLE player_event_counts;

-- Adds each property of `added` to the same property of `stored` (absent: 0), exactly.
CREATE FUNCTION add_event_sums(stored jsonb, added jsonb) RETURNS jsonb
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
DECLARE
  merged jsonb := stored;
  property text;
  amount numeric;
BEGIN
  FOR property, amount IN SELECT key, value::numeric FROM jsonb_each_text(added) LOOP
    merged := jsonb_set(merged, ARRAY[property], to_jsonb(coalesce((merged ->> property)::numeric, 0) + amount));
  END LOOP;
  RETURN merged;
END $$;

-- Down Migration
CREATE TABLE player_event_counts (
  environment_id uuid        NOT NULL,
  player_id      text        NOT NULL,
  event_key      text        NOT NULL,
  events_counted bigint      NOT NULL CHECK (events_counted > 0),
  last_event_id  uuid        NOT NULL,
  updated_at     timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (environment_id, player_id, event_key)
);
CREATE TABLE player_event_sums (
  environment_id uuid        NOT NULL,
  player_id      text        NOT NULL,
  event_key      text        NOT NULL,
  property       text        NOT NULL,
  total          numeric     NOT NULL,
  updated_at     timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (environment_id, player_id, event_key, property)
);
INSERT INTO player_event_counts (environment_id, player_id, event_key, events_counted, last_event_id, updated_at)
SELECT environment_id, player_id, event_key, events_counted, last_event_id, updated_at FROM player_event_totals;
INSERT INTO player_event_sums (environment_id, player_id, event_key, property, total, updated_at)
SELECT t.environment_id, t.player_id, t.event_key, s.key, s.value::numeric, t.updated_at
FROM player_event_totals t CROSS JOIN LATERAL jsonb_each_text(t.sums) s;
DROP FUNCTION add_event_sums(jsonb, jsonb);
DROP TABLE player_event_totals;
