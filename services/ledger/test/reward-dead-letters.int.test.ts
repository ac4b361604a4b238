import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { topicName, topics } from '@engage/contracts';
import { connectProducer, createKafka, type RunningConsumer, toMessages } from '@engage/kafka';
import { createLogger, metricsRegistry } from '@engage/kit';
import { eventually, randomEnvironment, stackConfig } from '@engage/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRewardGrantsConsumer } from '../src/consumers/reward-grants.ts';
import { rewardGrant } from './support/grants.ts';
import { type InProcessLedger, startInProcessLedger } from './support/in-process-ledger.ts';
import { expectLedgerInvariants, journalOf, storedBalance } from './support/invariants.ts';

let ledger: InProcessLedger;
let consumer: RunningConsumer | undefined;
const log = createLogger('dead-letters-test', 'silent');

beforeAll(async () => {
  ledger = await startInProcessLedger();
});
afterAll(async () => {
  await consumer?.stop();
  await ledger.close();
});

describe('reward-grant records the ledger cannot apply', () => {
  it('sets undecodable, malformed and refused records aside and credits the good ones around them once', async () => {
    const env = randomEnvironment();
    const playerId = `dead-letters-${crypto.randomUUID()}`;
    const first = rewardGrant(env, playerId, 10);
    const last = rewardGrant(env, playerId, 20);
    const malformed = { ...rewardGrant(env, playerId, 5), grantId: 'not-a-uuid' };
    // Well formed, but Postgres refuses the NUL of its journal reason (22021).
    const refused = { ...rewardGrant(env, playerId, 7), sourceKey: 'win\u0000three' };
    const garbage = Buffer.from('this is not an avro record');
    const [firstMessage, malformedMessage, refusedMessage, lastMessage] = toMessages(topics.rewardsGranted, [
      first,
      malformed,
      refused,
      last,
    ]);
    const topic = topicName(topics.rewardsGranted, ledger.topicPrefix);
    const producer = await connectProducer(
      createKafka({ brokers: ledger.brokers, clientId: 'dl-test', log }),
    );
    try {
      // One partition, in this order: good, garbage, malformed, refused, good.
      await producer.send({
        topic,
        acks: -1,
        messages: [
          firstMessage!,
          { key: 'garbage', value: garbage },
          malformedMessage!,
          refusedMessage!,
          lastMessage!,
        ].map((m) => ({ ...m, partition: 0 })),
      });
    } finally {
      await producer.disconnect();
    }

    consumer = await startRewardGrantsConsumer({
      kafka: createKafka({ brokers: ledger.brokers, clientId: 'dl-test', log }),
      pool: ledger.pool,
      log,
      topicPrefix: ledger.topicPrefix,
      sessionTimeoutMs: 6_000,
      onJournalCommitted: () => {},
    });
    const crashes: unknown[] = [];
    consumer.consumer.on(consumer.consumer.events.CRASH, ({ payload }) => crashes.push(payload.error));
    await eventually('the last good grant credited', async () =>
      (await storedBalance(ledger.pool, env.environmentId, playerId)) === 30 ? true : undefined,
    );

    const journal = await journalOf(ledger.pool, env.environmentId, playerId);
    expect(journal.map((e) => e.amount)).toEqual([10, 20]);
    const { rows: letters } = await ledger.pool.query<{
      partition: number;
      offset: number;
      record_key: string;
      raw: Buffer;
      error: string;
    }>(
      `SELECT partition, "offset", record_key, raw, error FROM reward_grant_dead_letters
       WHERE topic = $1 ORDER BY "offset"`,
      [topic],
    );
    expect(letters).toHaveLength(3);
    expect(letters[0]).toMatchObject({ partition: 0, record_key: 'garbage' });
    expect(letters[0]!.raw.equals(garbage)).toBe(true);
    expect(letters[1]!.raw.equals(malformedMessage!.value as Buffer)).toBe(true);
    expect(letters[1]!.error).toMatch(/grantId is not a UUID/);
    expect(letters[1]!.offset).toBe(letters[0]!.offset + 1);
    expect(letters[2]!.raw.equals(refusedMessage!.value as Buffer)).toBe(true);
    expect(letters[2]!.error).toMatch(/0x00 \(22021\)/);
    expect(letters[2]!.offset).toBe(letters[0]!.offset + 2);
    const { rows: offsets } = await ledger.pool.query<{ next_offset: number }>(
      `SELECT next_offset FROM kafka_offsets WHERE topic = $1 AND partition = 0`,
      [topic],
    );
    expect(offsets[0]!.next_offset).toBe(letters[2]!.offset + 2);
    const { rows: reasons } = await ledger.pool.query<{ reason: string }>(
      'SELECT reason FROM dead_letters WHERE topic = $1 ORDER BY id',
      [topic],
    );
    expect(reasons.map((r) => r.reason)).toEqual(['undecodable', 'unapplicable', 'unapplicable']);
    const counted = await metricsRegistry.getSingleMetric('kafka_dead_letters_total')?.get();
    expect(
      counted?.values.filter((v) => v.labels.topic === topic).map((v) => [v.labels.reason, v.value]),
    ).toEqual([
      ['undecodable', 1],
      ['unapplicable', 2],
    ]);
    expect(crashes).toEqual([]);
    await expectLedgerInvariants(ledger.pool, env.environmentId);

    // The operator's replay publishes the kept bytes again: still garbage, so kept again, further on.
    const { rows: ids } = await ledger.pool.query<{ id: number }>(
      'SELECT id FROM reward_grant_dead_letters WHERE topic = $1 AND record_key = $2',
      [topic, 'garbage'],
    );
    const replay = spawnSync(
      process.execPath,
      [fileURLToPath(new URL('../src/tools/replay-dead-letters.ts', import.meta.url)), String(ids[0]!.id)],
      {
        env: {
          ...process.env,
          DATABASE_URL: stackConfig().databaseUrl,
          KAFKA_BROKERS: ledger.brokers.join(','),
        },
        encoding: 'utf8',
      },
    );
    expect(replay.status, replay.stderr).toBe(0);
    await eventually('the replayed record kept again', async () => {
      const { rows } = await ledger.pool.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM reward_grant_dead_letters WHERE topic = $1 AND record_key = $2',
        [topic, 'garbage'],
      );
      return rows[0]!.n === 2 ? true : undefined;
    });
    const { rows: replayed } = await ledger.pool.query(
      'SELECT id FROM reward_grant_dead_letters WHERE replayed_at IS NOT NULL AND topic = $1',
      [topic],
    );
    expect(replayed).toEqual([{ id: ids[0]!.id }]);
    expect(await storedBalance(ledger.pool, env.environmentId, playerId)).toBe(30);
  });
});
