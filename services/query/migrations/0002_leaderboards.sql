-- Up Migration
-- Leaderboards (docs/leaderboards.md). Postgres holds every score and every settled result; Redis
-- holds the live boards of open periods and is rebuilt from here when it loses them.

-- The `leaderboards` section of the environment file, one row per board (LeaderboardDefinitionSchema).
CREATE TABLE leaderboard_definitions (
  environment_id uuid        NOT NULL,
  board_key      text        NOT NULL,
  definition     jsonb       NOT NULL,
  updated_at     timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (environment_id, board_key)
);

-- One row per period in which somebody scored. The consumer holds it FOR SHARE while it scores
-- into the period; settling holds it FOR UPDATE, so a period is settled once and nothing scores
-- into a settled period. A sandbox settle cuts the period short by lowering period_end.
CREATE TABLE board_periods (
  environment_id  uuid        NOT NULL,
  board_key       text        NOT NULL,
  period_start    timestamptz NOT NULL,
  period_end      timestamptz,
  organization_id uuid        NOT NULL,
  state           text        NOT NULL DEFAULT 'open' CHECK (state IN ('open', 'settled')),
  participants    integer,
  settled_at      timestamptz,
  PRIMARY KEY (environment_id, board_key, period_start)
);
CREATE INDEX board_periods_due ON board_periods (period_end) WHERE state = 'open';

-- Every player's score on a board in a period, exact. reached_at: when the current score was
-- reached (ties rank who reached it first higher).
CREATE TABLE board_scores (
  environment_id uuid        NOT NULL,
  board_key      text        NOT NULL,
  period_start   timestamptz NOT NULL,
  player_id      text        NOT NULL,
  aggregation    text        NOT NULL,
  score          numeric     NOT NULL,
  reached_at     timestamptz NOT NULL,
  -- Team boards: fixed by the player's first event in the period that names a team.
  team_key       text,
  -- League boards: the tier and the group the player joined in this period.
  tier           integer,
  group_no       integer,
  mirror_pending boolean     NOT NULL DEFAULT true,
  updated_at     timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (environment_id, board_key, period_start, player_id)
);
CREATE INDEX board_scores_mirror_pending ON board_scores (updated_at) WHERE mirror_pending;
CREATE INDEX board_scores_teams ON board_scores (environment_id, board_key, period_start, team_key)
  WHERE team_key IS NOT NULL;

-- League groups fill in order of arrival: the number of players who joined each tier in a period.
CREATE TABLE league_group_fill (
  environment_id uuid    NOT NULL,
  board_key      text    NOT NULL,
  period_start   timestamptz NOT NULL,
  tier           integer NOT NULL,
  joined         integer NOT NULL,
  PRIMARY KEY (environment_id, board_key, period_start, tier)
);

-- A league player's tier for the periods to come (absent: the lowest tier). Written by settlement.
CREATE TABLE league_tiers (
  environment_id uuid        NOT NULL,
  board_key      text        NOT NULL,
  player_id      text        NOT NULL,
  tier           integer     NOT NULL,
  updated_at     timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (environment_id, board_key, player_id)
);

-- Final ranks of a settled period. row_key is a player id, or a team key on a team board.
CREATE TABLE board_results (
  environment_id uuid        NOT NULL,
  board_key      text        NOT NULL,
  period_start   timestamptz NOT NULL,
  row_key        text        NOT NULL,
  is_team        boolean     NOT NULL,
  rank           integer     NOT NULL,
  score          numeric     NOT NULL,
  tier           integer,
  group_no       integer,
  movement       text CHECK (movement IN ('Promoted', 'Relegated', 'Stayed')),
  next_tier      integer,
  PRIMARY KEY (environment_id, board_key, period_start, row_key)
);
CREATE INDEX board_results_rank ON board_results (environment_id, board_key, period_start, tier, group_no, rank);

-- Display names shown for other players: the `displayName` event property or player attribute.
CREATE TABLE player_display_names (
  environment_id uuid        NOT NULL,
  player_id      text        NOT NULL,
  display_name   text        NOT NULL,
  updated_at     timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (environment_id, player_id)
);

-- Down Migration
DROP TABLE player_display_names;
DROP TABLE board_results;
DROP TABLE league_tiers;
DROP TABLE league_group_fill;
DROP TABLE board_scores;
DROP TABLE board_periods;
DROP TABLE leaderboard_definitions;
