import { randomUUID } from 'node:crypto';
import type { Pool } from '@engage/postgres';
import {
  expectKeyLookups,
  type NeverAnalyzedSchema,
  neverAnalyzedSchema,
  spreadIds,
  uniqueTopicPrefix,
} from '@engage/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyWrites } from '../src/application/write-queue.ts';
import { createLedgerPool } from '../src/store/pool.ts';
import { adjustmentOp } from './support/adjustment-op.ts';

/**
 * A write batch's read and write (balances, idempotency keys, journal, outbox) stay index lookups on
 * tables of 100,000 players whose statistics Postgres never gathered, with a custom and a generic
 * plan, on the ledger's own connections.
 */
const ROWS = 100_000;
const ASKED = 50;

const environmentId = randomUUID();

let schema: NeverAnalyzedSchema;
let pool: Pool;

beforeAll(async () => {
  schema = await neverAnalyzedSchema(
    'ledger',
    (filling) =>
      filling.query({
        text: `WITH players AS (SELECT 'player-' || n AS player_id FROM generate_series(1, $2::int) n),
                    balance_rows AS (INSERT INTO balances (environment_id, player_id, balance)
                                     SELECT $1, player_id, 100 FROM players)
               INSERT INTO idempotency_keys (environment_id, player_id, key, operation, request_hash, target)
               SELECT $1, player_id, 'k', 'adjustment', 'h', '1' FROM players`,
        values: [environmentId, ROWS],
      }),
    (url) => createLedgerPool({ url, max: 1 }),
  );
  pool = schema.pool;
}, 120_000);

afterAll(() => schema?.close());

const askedPlayers = () => spreadIds('player', ROWS, ASKED);

describe('ledger hot statements on never-analyzed tables', () => {
  it("reads and writes a batch's balances, keys, journal and outbox by key", async () => {
    await expectKeyLookups(pool, ASKED, async (client) => {
      const tx = { query: client.query.bind(client), commitWith: client.query.bind(client) };
      const results = await applyWrites(
        tx,
        askedPlayers().map((playerId) => adjustmentOp(environmentId, playerId, 5)),
        uniqueTopicPrefix(),
      );
      expect(results.filter((r) => 'problem' in r)).toEqual([]);
    });
  });
});
