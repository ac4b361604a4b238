import { randomUUID } from 'node:crypto';
import type { Pool } from '@engage/postgres';
import { expectKeyLookups, type NeverAnalyzedSchema, neverAnalyzedSchema, spreadIds } from '@engage/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createPlayerRows,
  findProgressAndRulesVersion,
  lockPlayers,
  type PlayerRef,
  readPlayers,
  writePlayers,
} from '../src/store/progress.ts';

/**
 * The consumer's and the requests' statements over players' progress stay index lookups on tables
 * of 100,000 players whose statistics Postgres never gathered, with a custom and a generic plan.
 */
const ROWS = 100_000;
const ASKED = 50;

const environmentId = randomUUID();

let schema: NeverAnalyzedSchema;
let pool: Pool;

beforeAll(async () => {
  schema = await neverAnalyzedSchema('rules', async (filling) => {
    await filling.query(
      `INSERT INTO player_counters (environment_id, player_id, counters, events_applied, last_event_id,
         last_offset, last_occurred_at)
       SELECT $1, 'player-' || n, '[1]', 1, gen_random_uuid(), n, now() FROM generate_series(1, $2) n`,
      [environmentId, ROWS],
    );
    await filling.query(
      `INSERT INTO player_progress (environment_id, player_id) SELECT $1, 'player-' || n FROM generate_series(1, $2) n`,
      [environmentId, ROWS],
    );
    await filling.query('INSERT INTO definition_versions (environment_id, version) VALUES ($1, 1)', [
      environmentId,
    ]);
  });
  pool = schema.pool;
}, 120_000);

afterAll(() => schema?.close());

const askedPlayers = (): PlayerRef[] =>
  spreadIds('player', ROWS, ASKED).map((playerId) => ({ environmentId, playerId }));

describe('rules hot statements on never-analyzed tables', () => {
  it("reads, creates and locks a batch's players by key", async () => {
    await expectKeyLookups(pool, ASKED, async (client) => {
      const asked = askedPlayers().map((p) => ({ ...p, knownRevision: null }));
      expect(await readPlayers(client, asked)).toHaveLength(ASKED - 10);
      await createPlayerRows(client, asked);
      expect(await lockPlayers(client, asked)).toHaveLength(ASKED);
    });
  });

  it("writes a batch's players back, each on the revision read, by key", async () => {
    const asked = askedPlayers().slice(0, ASKED - 10);
    const client = await pool.connect();
    const read = await readPlayers(
      client,
      asked.map((p) => ({ ...p, knownRevision: null })),
    ).finally(() => client.release());
    await expectKeyLookups(pool, ASKED, async (client) => {
      const written = await writePlayers(
        client,
        read.map((row, i) => ({
          player: { environmentId, playerId: row.player_id },
          activity: {
            environmentId,
            playerId: row.player_id,
            eventsApplied: 2,
            lastEventId: randomUUID(),
            lastOffset: String(ROWS + i),
            lastOccurredAt: new Date().toISOString(),
            appliedEventsDigest: 'digest',
          },
          progress: undefined,
          revision: undefined,
          expected: { revision: row.revision, eventsApplied: Number(row.events_applied) },
        })),
      );
      expect(written).toHaveLength(ASKED - 10);
    });
  });

  it("reads one player's progress and the rules' version by key", async () => {
    await expectKeyLookups(pool, 1, async (client) => {
      const { stored, rulesVersion } = await findProgressAndRulesVersion(client, askedPlayers()[3]!);
      expect([stored?.playerId, rulesVersion]).toEqual([askedPlayers()[3]!.playerId, 1]);
    });
  });
});
