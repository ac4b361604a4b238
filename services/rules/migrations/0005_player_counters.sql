-- Up Migration
-- Nearly every event changes only a player's objective values and activity, yet each wrote the
-- player's whole progress row (every entry's times and distinct values seen, about 2.6 kB) and an
-- activity row. They are split by how often they change:
--
-- - player_counters: one narrow row per player with what every event moves (the objective values as
--   one JSON array of numbers, the activity that was player_activity) and the revision token; it is
--   the row every writer locks.
-- - player_progress: the entries' rarely changing part, each objective naming the slot of its value
--   in the counters (src/store/progress-codec.ts), and the streaks; written only when they change.
CREATE TABLE player_counters (
  environment_id        uuid        NOT NULL,
  player_id             text        NOT NULL,
  -- Objective values by slot; player_progress.missions says which slot is which objective.
  counters              json        NOT NULL DEFAULT '[]',
  revision              uuid        NOT NULL DEFAULT gen_random_uuid(),
  -- The activity (see 0001): 0 events and nulls until an event is applied to the player.
  events_applied        bigint      NOT NULL DEFAULT 0 CHECK (events_applied >= 0),
  last_event_id         uuid,
  last_offset           bigint,
  last_occurred_at      timestamptz,
  applied_events_digest text        NOT NULL DEFAULT '',
  -- When an event was last applied.
  updated_at            timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (environment_id, player_id)
) WITH (fillfactor = 70);

-- Every stored objective gets a slot, numbered per player in a fixed order; its value moves to the
-- counters. Entries are in the compact array form, or (written before it) objects with ISO times.
WITH entries AS (
  SELECT p.environment_id, p.player_id, m.key AS mission, m.ord AS mission_ord,
    CASE WHEN json_typeof(m.value) = 'array' THEN m.value::jsonb
    ELSE jsonb_build_array(
      (m.value->>'occurrence')::int,
      coalesce((extract(epoch FROM (m.value->>'enteredAt')::timestamptz) * 1000)::bigint, 0),
      coalesce((extract(epoch FROM (m.value->>'acceptedAt')::timestamptz) * 1000)::bigint, 0),
      coalesce((extract(epoch FROM (m.value->>'countingSince')::timestamptz) * 1000)::bigint, 0),
      coalesce((extract(epoch FROM (m.value->>'completedAt')::timestamptz) * 1000)::bigint, 0),
      CASE WHEN (m.value->>'completionShown')::boolean THEN 1 ELSE 0 END,
      coalesce(m.value->'objectives', '{}')::jsonb
    ) END AS entry
  FROM player_progress p
  CROSS JOIN LATERAL json_each(p.missions) WITH ORDINALITY AS m(key, value, ord)
),
objectives AS (
  SELECT e.environment_id, e.player_id, e.mission, o.key AS objective, o.value AS stored,
    row_number() OVER (PARTITION BY e.environment_id, e.player_id ORDER BY e.mission_ord, o.ord) - 1 AS slot
  FROM entries e
  CROSS JOIN LATERAL jsonb_each(e.entry->6) WITH ORDINALITY AS o(key, value, ord)
),
slotted AS (
  SELECT environment_id, player_id, mission,
    jsonb_object_agg(objective, CASE
      WHEN jsonb_typeof(stored) = 'number' THEN to_jsonb(slot)
      WHEN jsonb_typeof(stored) = 'array' THEN jsonb_build_array(slot) || (stored - 0)
      WHEN stored ? 'seen' OR coalesce((stored->>'satisfied')::boolean, false) THEN
        jsonb_build_array(slot, CASE WHEN (stored->>'satisfied')::boolean THEN 1 ELSE 0 END)
          || coalesce(stored->'seen', '[]')
      ELSE to_jsonb(slot)
    END) AS objectives
  FROM objectives GROUP BY 1, 2, 3
),
counters AS (
  SELECT environment_id, player_id,
    jsonb_agg(CASE jsonb_typeof(stored) WHEN 'number' THEN stored WHEN 'array' THEN stored->0
      ELSE stored->'value' END ORDER BY slot) AS counters
  FROM objectives GROUP BY 1, 2
),
missions AS (
  SELECT e.environment_id, e.player_id,
    jsonb_object_agg(e.mission, jsonb_set(e.entry, '{6}', coalesce(s.objectives, '{}'))) AS missions
  FROM entries e
  LEFT JOIN slotted s USING (environment_id, player_id, mission)
  GROUP BY 1, 2
),
rewritten AS (
  UPDATE player_progress p SET missions = m.missions::json
  FROM missions m
  WHERE p.environment_id = m.environment_id AND p.player_id = m.player_id
)
INSERT INTO player_counters (environment_id, player_id, counters, events_applied, last_event_id,
  last_offset, last_occurred_at, applied_events_digest, updated_at)
SELECT environment_id, player_id, coalesce(c.counters::json, '[]'), coalesce(a.events_applied, 0),
  a.last_event_id, a.last_offset, a.last_occurred_at, coalesce(a.applied_events_digest, ''),
  coalesce(a.updated_at, now())
FROM (SELECT environment_id, player_id FROM player_progress) p
FULL JOIN player_activity a USING (environment_id, player_id)
LEFT JOIN counters c USING (environment_id, player_id);

ALTER TABLE player_progress DROP COLUMN revision;
DROP TABLE player_activity;

-- Down Migration
CREATE TABLE player_activity (
  environment_id        uuid        NOT NULL,
  player_id             text        NOT NULL,
  events_applied        bigint      NOT NULL CHECK (events_applied >= 0),
  last_event_id         uuid        NOT NULL,
  last_offset           bigint      NOT NULL,
  last_occurred_at      timestamptz NOT NULL,
  applied_events_digest text        NOT NULL,
  updated_at            timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (environment_id, player_id)
);
INSERT INTO player_activity
SELECT environment_id, player_id, events_applied, last_event_id, last_offset, last_occurred_at,
  applied_events_digest, updated_at
FROM player_counters WHERE events_applied > 0;
ALTER TABLE player_progress ADD COLUMN revision uuid NOT NULL DEFAULT gen_random_uuid();
-- Values back in place of their slots (the compact form of 0004).
WITH objectives AS (
  SELECT p.environment_id, p.player_id, m.key AS mission, m.value::jsonb AS entry, o.key AS objective,
    CASE WHEN jsonb_typeof(o.value) = 'number' THEN (c.counters->(o.value::text::int))::jsonb
    ELSE jsonb_build_array(c.counters->((o.value->>0)::int)) || (o.value - 0) END AS stored
  FROM player_progress p
  JOIN player_counters c USING (environment_id, player_id)
  CROSS JOIN LATERAL json_each(p.missions) AS m(key, value)
  CROSS JOIN LATERAL jsonb_each(m.value::jsonb->6) AS o(key, value)
),
entries AS (
  SELECT p.environment_id, p.player_id, m.key AS mission,
    jsonb_set(m.value::jsonb, '{6}', coalesce(
      (SELECT jsonb_object_agg(o.objective, o.stored) FROM objectives o
       WHERE o.environment_id = p.environment_id AND o.player_id = p.player_id AND o.mission = m.key),
      '{}')) AS entry
  FROM player_progress p
  CROSS JOIN LATERAL json_each(p.missions) AS m(key, value)
)
UPDATE player_progress p SET missions = e.missions::json
FROM (SELECT environment_id, player_id, jsonb_object_agg(mission, entry) AS missions FROM entries GROUP BY 1, 2) e
WHERE p.environment_id = e.environment_id AND p.player_id = e.player_id;
DROP TABLE player_counters;
