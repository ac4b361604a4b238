import { randomUUID } from 'node:crypto';
import type { Pool } from '@engage/postgres';
import { expectKeyLookups, type NeverAnalyzedSchema, neverAnalyzedSchema, spreadIds } from '@engage/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScoreDelta } from '../src/domain/scoring.ts';
import {
  currentTiers,
  existingPlayers,
  mergeScores,
  readScores,
  type ScoredPeriod,
} from '../src/store/scores.ts';
import { addTallies } from '../src/store/totals.ts';

/**
 * The consumer's statements over totals, scores and league tiers stay index lookups on tables of
 * 100,000 players whose statistics Postgres never gathered, with a custom and a generic plan.
 */
const ROWS = 100_000;
const ASKED = 50;

const environmentId = randomUUID();
const boardKey = 'weekly';
const periodStart = Date.parse('2026-12-07T00:00:00Z');
const period: ScoredPeriod = { environmentId, boardKey, periodStart, periodEnd: null };

let schema: NeverAnalyzedSchema;
let pool: Pool;

beforeAll(async () => {
  schema = await neverAnalyzedSchema('query', async (filling) => {
    await filling.query(
      `INSERT INTO player_event_totals (environment_id, player_id, event_key, events_counted, last_event_id, sums)
       SELECT $1, 'player-' || n, 'level_completed', 1, gen_random_uuid(), '{"score": 10}' FROM generate_series(1, $2) n`,
      [environmentId, ROWS],
    );
    await filling.query(
      'INSERT INTO board_periods (environment_id, board_key, period_start, organization_id) VALUES ($1, $2, $3, $4)',
      [environmentId, boardKey, new Date(periodStart).toISOString(), randomUUID()],
    );
    await filling.query(
      `INSERT INTO board_scores (environment_id, board_key, period_start, player_id, aggregation, score, reached_at)
       SELECT $1, $2, $3, 'player-' || n, 'Sum', n, now() FROM generate_series(1, $4) n`,
      [environmentId, boardKey, new Date(periodStart).toISOString(), ROWS],
    );
    await filling.query(
      `INSERT INTO league_tiers (environment_id, board_key, player_id, tier)
       SELECT $1, $2, 'player-' || n, 1 FROM generate_series(1, $3) n`,
      [environmentId, boardKey, ROWS],
    );
  });
  pool = schema.pool;
}, 120_000);

afterAll(() => schema?.close());

const askedPlayers = () => spreadIds('player', ROWS, ASKED);

const deltas = (): ScoreDelta[] =>
  askedPlayers().map((playerId) => ({
    environmentId,
    boardKey,
    periodStart,
    playerId,
    aggregation: 'Sum',
    value: '5',
    reachedAt: Date.now(),
    teamKey: null,
  }));

describe('query hot statements on never-analyzed tables', () => {
  it("adds a batch's tallies by key", async () => {
    await expectKeyLookups(pool, ASKED, (client) =>
      addTallies(
        client,
        askedPlayers().map((playerId) => ({
          environmentId,
          playerId,
          eventKey: 'level_completed',
          count: 1,
          lastEventId: randomUUID(),
          sums: { score: '7' },
        })),
      ),
    );
  });

  it("merges a batch's scores by key", async () => {
    await expectKeyLookups(pool, ASKED, async (client) => {
      const { rows } = await mergeScores(client, deltas(), new Map(), () => period);
      expect(rows).toHaveLength(ASKED);
    });
  });

  it("reads a batch's scores, league rows and tiers by key", async () => {
    await expectKeyLookups(pool, ASKED, async (client) => {
      expect(await existingPlayers(client, deltas())).toHaveProperty('size', ASKED - 10);
      expect(await currentTiers(client, deltas())).toHaveProperty('size', ASKED - 10);
      expect(await readScores(client, deltas())).toHaveLength(ASKED - 10);
    });
  });
});
