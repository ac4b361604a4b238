import { randomUUID } from 'node:crypto';
import type { Pool } from '@engage/postgres';
import { expectKeyLookups, type NeverAnalyzedSchema, neverAnalyzedSchema, spreadIds } from '@engage/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activeAmong, recordActive } from '../src/store/activity.ts';
import { claimKeys, commitKeys, type KeyClaim, readKeys } from '../src/store/idempotency.ts';
import { readPlayers, readSightings, upsertPlayers } from '../src/store/players.ts';

/**
 * The gateway's hot statements (player reads and upserts, admission, event idempotency keys) stay
 * index lookups on tables of 100,000 rows whose statistics Postgres never gathered: every plan,
 * custom and generic, touches a number of rows in proportion to the players asked for, not to the
 * table.
 */
const ROWS = 100_000;
const ASKED = 50;

const environmentId = randomUUID();
const month = '2026-12-01';

let schema: NeverAnalyzedSchema;
let pool: Pool;

beforeAll(async () => {
  schema = await neverAnalyzedSchema('gateway', async (filling) => {
    await filling.query(
      `INSERT INTO players (environment_id, external_id)
       SELECT $1, 'player-' || n FROM generate_series(1, $2) n`,
      [environmentId, ROWS],
    );
    await filling.query(
      `INSERT INTO monthly_active_players (environment_id, month, external_id)
       SELECT $1, $3, 'player-' || n FROM generate_series(1, $2) n`,
      [environmentId, ROWS, month],
    );
    await filling.query(
      `INSERT INTO event_idempotency_keys (environment_id, player_id, event_key, idempotency_key, event_id, state)
       SELECT $1, 'player-' || n, 'level_completed', 'key-' || n, gen_random_uuid(), 'committed'
       FROM generate_series(1, $2) n`,
      [environmentId, ROWS],
    );
  });
  pool = schema.pool;
}, 120_000);

afterAll(() => schema?.close());

const askedPlayers = () => spreadIds('player', ROWS, ASKED);

describe('gateway hot statements on never-analyzed tables', () => {
  it('reads players and sightings by key', async () => {
    await expectKeyLookups(pool, ASKED, async (client) => {
      const players = await readPlayers(client, environmentId, askedPlayers(), month);
      expect(players.size).toBe(ASKED - 10);
      expect([...players.values()].every((p) => p.active)).toBe(true);
      const sightings = await readSightings(client, environmentId, askedPlayers(), month);
      expect(sightings.size).toBe(ASKED - 10);
    });
  });

  it('upserts players seen and unseen by key', async () => {
    await expectKeyLookups(pool, ASKED, async (client) => {
      const upserted = await upsertPlayers(
        client,
        environmentId,
        askedPlayers().map((externalId) => ({ externalId, timeZone: null })),
      );
      expect([...upserted.values()].filter((p) => p.isNew)).toHaveLength(10);
    });
  });

  it('admits players into the month by key', async () => {
    await expectKeyLookups(pool, ASKED, async (client) => {
      const already = await activeAmong(client, environmentId, month, askedPlayers());
      expect(already.size).toBe(ASKED - 10);
      expect(await recordActive(client, environmentId, month, askedPlayers())).toBe(10);
    });
  });

  it('claims, reads and commits event idempotency keys by key', async () => {
    const claims: KeyClaim[] = askedPlayers().map((playerId, i) => ({
      playerId,
      eventKey: 'level_completed',
      idempotencyKey: playerId.startsWith('player-') ? `key-${playerId.slice(7)}` : `new-${i}`,
      eventId: randomUUID(),
    }));
    await expectKeyLookups(pool, ASKED, async (client) => {
      const { claimed, found } = await claimKeys(client, environmentId, claims);
      expect([claimed.size, found.size]).toEqual([10, ASKED - 10]);
      expect((await readKeys(client, environmentId, claims)).size).toBe(ASKED);
      await commitKeys(client, environmentId, claims);
    });
  });
});
