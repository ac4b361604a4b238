import { createKafka, type RunningConsumer } from '@engage/kafka';
import { createLogger } from '@engage/kit';
import { eventually, randomEnvironment } from '@engage/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRewardGrantsConsumer } from '../src/consumers/reward-grants.ts';
import { playerItems } from '../src/store/player-items.ts';
import { publishGrants, rewardGrant } from './support/grants.ts';
import { type InProcessLedger, startInProcessLedger } from './support/in-process-ledger.ts';
import { expectLedgerInvariants, journalOf, storedBalance } from './support/invariants.ts';

let ledger: InProcessLedger;
let consumer: RunningConsumer | undefined;
const log = createLogger('rewards-test', 'error');

beforeAll(async () => {
  ledger = await startInProcessLedger();
});
afterAll(async () => {
  await consumer?.stop();
  await ledger.close();
});

const startConsumer = () =>
  startRewardGrantsConsumer({
    kafka: createKafka({ brokers: ledger.brokers, clientId: 'rewards-test', log }),
    pool: ledger.pool,
    log,
    topicPrefix: ledger.topicPrefix,
    sessionTimeoutMs: 6_000,
    onJournalCommitted: () => {},
  });

async function grantsApplied(environmentId: string): Promise<number> {
  const { rows } = await ledger.pool.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM reward_grants WHERE environment_id = $1',
    [environmentId],
  );
  return rows[0]!.n;
}

describe('reward grants from Kafka', () => {
  it('credits each grant once, records catalog items, and ignores a grant published again', async () => {
    const env = randomEnvironment();
    const players = Array.from({ length: 4 }, (_, i) => `rewarded-${i}-${crypto.randomUUID()}`);
    const grants = players.flatMap((playerId, p) =>
      Array.from({ length: 5 }, (_, g) =>
        rewardGrant(
          env,
          playerId,
          10 * (g + 1),
          g === 0
            ? [
                { key: 'chest', value: p },
                { key: 'badge', value: null },
              ]
            : [],
        ),
      ),
    );
    const nothingToCredit = rewardGrant(env, players[0]!, 0, [{ key: 'title', value: 'Hero' }]);
    // Every grant twice in the same stream, as a re-emitting producer would.
    await publishGrants(ledger.brokers, ledger.topicPrefix, [...grants, ...grants, nothingToCredit]);
    consumer = await startConsumer();
    await eventually('every grant applied', async () =>
      (await grantsApplied(env.environmentId)) === grants.length + 1 ? true : undefined,
    );

    for (const playerId of players)
      expect(await storedBalance(ledger.pool, env.environmentId, playerId)).toBe(150);
    const journal = await journalOf(ledger.pool, env.environmentId);
    expect(journal).toHaveLength(grants.length);
    expect(journal.every((e) => e.kind === 'reward')).toBe(true);
    const { rows: refs } = await ledger.pool.query<{ source_ref: string }>(
      'SELECT source_ref FROM journal WHERE environment_id = $1',
      [env.environmentId],
    );
    expect(new Set(refs.map((r) => r.source_ref))).toEqual(new Set(grants.map((g) => g.grantId)));
    expect(await playerItems(ledger.pool, env.environmentId, players[0]!)).toMatchObject([
      {
        catalogItemKey: 'chest',
        value: { type: 'number', value: 0 },
        source: 'reward',
        sourceRef: grants[0]!.grantId,
      },
      { catalogItemKey: 'badge', value: null, source: 'reward' },
      { catalogItemKey: 'title', value: { type: 'string', value: 'Hero' }, entryId: null },
    ]);

    // Published again after the consumer restarted: deduped by grantId, not by offset.
    await consumer.stop();
    consumer = undefined;
    await publishGrants(ledger.brokers, ledger.topicPrefix, grants.slice(0, 3));
    const marker = rewardGrant(env, players[3]!, 1);
    await publishGrants(ledger.brokers, ledger.topicPrefix, [marker]);
    consumer = await startConsumer();
    await eventually('the marker grant applied', async () =>
      (await grantsApplied(env.environmentId)) === grants.length + 2 ? true : undefined,
    );
    expect(await storedBalance(ledger.pool, env.environmentId, players[0]!)).toBe(150);
    expect(await storedBalance(ledger.pool, env.environmentId, players[3]!)).toBe(151);
    await expectLedgerInvariants(ledger.pool, env.environmentId);
  });
});
