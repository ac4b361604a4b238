import { sqlBuilder } from '@engage/postgres';

/** The query schema's tables as the typed builder sees them (migrations/ has the DDL). */
export interface QueryTables {
  board_periods: {
    environment_id: string;
    board_key: string;
    period_start: Date;
    period_end: Date | null;
    organization_id: string;
    state: 'open' | 'settled';
    participants: number | null;
    settled_at: Date | null;
  };
  board_results: {
    environment_id: string;
    board_key: string;
    period_start: Date;
    row_key: string;
    is_team: boolean;
    rank: number;
    score: string;
    tier: number | null;
    group_no: number | null;
    movement: 'Promoted' | 'Relegated' | 'Stayed' | null;
    next_tier: number | null;
  };
  board_scores: {
    environment_id: string;
    board_key: string;
    period_start: Date;
    player_id: string;
    tier: number | null;
    group_no: number | null;
  };
  league_tiers: { environment_id: string; board_key: string; player_id: string; tier: number };
  leaderboard_definitions: { environment_id: string; board_key: string; definition: unknown };
  player_display_names: { environment_id: string; player_id: string; display_name: string };
}

export const db = sqlBuilder<QueryTables>();
