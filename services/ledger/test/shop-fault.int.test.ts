import type { EnvironmentContext } from '@engage/contracts';
import type { Pool } from '@engage/postgres';
import { eventually, randomEnvironment, type ServiceProcess } from '@engage/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publishGrants, rewardGrant } from './support/grants.ts';
import { expectLedgerInvariants, journalOf, storedBalance } from './support/invariants.ts';
import { readJournalTopic } from './support/journal-topic.ts';
import {
  callLedger,
  type HttpAnswer,
  type LedgerProcess,
  type Observed,
  startLedgerProcess,
} from './support/ledger-process.ts';
import { item } from './support/shop.ts';

let ledger: LedgerProcess;
let service: ServiceProcess;
let pool: Pool;
let topicPrefix: string;
let brokers: string[];

beforeAll(async () => {
  ledger = await startLedgerProcess({ poolSize: 4 });
  service = ledger.service;
  pool = ledger.pool;
  topicPrefix = ledger.topicPrefix;
  brokers = ledger.brokers;
});

afterAll(async () => {
  await ledger?.stop();
});

const call = (
  method: 'GET' | 'POST' | 'PUT',
  path: string,
  env: EnvironmentContext,
  playerId: string | undefined,
  body?: unknown,
): Promise<Observed> => callLedger(service, { method, path, env, playerId, body });

interface Buy {
  playerId: string;
  idempotencyKey: string;
}
const buy = (env: EnvironmentContext, b: Buy) =>
  call('POST', '/v1/marketplace-items/crate/purchases', env, b.playerId, b);

describe('the ledger process killed during purchases and reward batches', () => {
  it('charges and credits nothing twice, replays every completed purchase, and loses nothing acknowledged', async () => {
    const env = randomEnvironment();
    const stock = 150;
    const applied = await call(
      'PUT',
      `/internal/v1/environments/${env.environmentId}/definition/marketplace`,
      env,
      undefined,
      {
        items: [item('crate', { priceInPoints: 5, stock })],
        collections: [],
      },
    );
    expect(applied).toMatchObject({ status: 200 });
    const players = Array.from({ length: 6 }, (_, i) => `buyer-${i}-${crypto.randomUUID()}`);
    for (const playerId of players) {
      expect(
        await call('POST', '/v1/points/adjustments', env, playerId, {
          playerId,
          amount: 150,
          idempotencyKey: 'fund',
        }),
      ).toMatchObject({ status: 200 });
    }
    const buys: Buy[] = Array.from({ length: 240 }, (_, i) => ({
      playerId: players[i % players.length]!,
      idempotencyKey: `buy-${i}`,
    }));
    const grants = Array.from({ length: 4 }, () =>
      players.flatMap((playerId) => Array.from({ length: 15 }, () => rewardGrant(env, playerId, 3))),
    );

    // Eight clients buy in order; a wave of reward grants is published before each of three
    // SIGKILLs, which land while purchases and grant batches are in flight.
    const first: Observed[] = new Array(buys.length);
    const killAfter = [40, 100, 160];
    let answered = 0;
    let next = 0;
    let restarting: Promise<void> | undefined;
    await publishGrants(brokers, topicPrefix, grants[0]!);
    const client = async () => {
      while (next < buys.length) {
        await restarting;
        const i = next++;
        first[i] = await buy(env, buys[i]!);
        answered++;
        if (answered >= (killAfter[0] ?? Number.POSITIVE_INFINITY) && !restarting) {
          const wave = grants[4 - killAfter.length]!;
          killAfter.shift();
          restarting = publishGrants(brokers, topicPrefix, wave)
            .then(() => service.kill('SIGKILL'))
            .then(() => service.restart())
            .finally(() => {
              restarting = undefined;
            });
        }
      }
    };
    await Promise.all(Array.from({ length: 8 }, client));
    await restarting;
    expect(killAfter).toEqual([]);
    const unknown = first.filter((o) => o === 'unknown').length;
    process.stdout.write(`[ledger shop fault] ${unknown} of ${buys.length} purchases saw no answer\n`);

    // Every purchase again with its key: a completed one answers exactly as before.
    const retried: HttpAnswer[] = [];
    for (let i = 0; i < buys.length; i += 16) {
      for (const observed of await Promise.all(buys.slice(i, i + 16).map((b) => buy(env, b)))) {
        if (observed === 'unknown') throw new Error('the restarted ledger did not answer');
        retried.push(observed);
      }
    }
    buys.forEach((_, i) => {
      const answer = retried[i]!;
      expect([200, 409]).toContain(answer.status);
      if (answer.status === 409)
        expect([
          'marketplace_item.out_of_stock',
          'points.insufficient_balance',
          'points.concurrent_update',
        ]).toContain(answer.body.code);
      const original = first[i]!;
      if (original !== 'unknown' && original.body.code !== 'points.concurrent_update')
        expect(answer).toEqual(original);
    });

    const allGrants = grants.flat();
    await eventually(
      'every reward grant applied',
      async () => {
        const { rows } = await pool.query<{ n: number }>(
          'SELECT count(*)::int AS n FROM reward_grants WHERE environment_id = $1',
          [env.environmentId],
        );
        return rows[0]!.n === allGrants.length ? true : undefined;
      },
      { timeoutMs: 90_000 },
    );

    // Nothing twice, nothing lost: sold units, purchases, credits and balances all agree.
    const purchased = retried.filter((a) => a.status === 200);
    const { rows: sales } = await pool.query<{ sold: number }>(
      'SELECT coalesce(sum(sold), 0)::int AS sold FROM item_sales WHERE environment_id = $1',
      [env.environmentId],
    );
    expect(sales[0]!.sold).toBe(purchased.length);
    expect(purchased.length).toBeLessThanOrEqual(stock);
    for (const playerId of players) {
      const bought = buys.filter((b, i) => b.playerId === playerId && retried[i]!.status === 200).length;
      expect(await storedBalance(pool, env.environmentId, playerId)).toBe(150 + 3 * 60 - 5 * bought);
    }
    await expectLedgerInvariants(pool, env.environmentId);
    const journal = await journalOf(pool, env.environmentId);
    expect(journal.filter((e) => e.kind === 'reward')).toHaveLength(allGrants.length);
    expect(new Set(journal.filter((e) => e.kind === 'purchase').map((e) => e.entryId))).toEqual(
      new Set(purchased.map((a) => a.body.transactionId as string)),
    );

    // The topic carries every committed entry (re-sends repeat an entry unchanged).
    const records = await readJournalTopic(
      brokers,
      topicPrefix,
      new Set(journal.map((e) => e.entryId)),
      60_000,
    );
    const published = new Set(
      records.filter((r) => r.environmentId === env.environmentId).map((r) => r.entryId),
    );
    expect(published).toEqual(new Set(journal.map((e) => e.entryId)));
  });
});
