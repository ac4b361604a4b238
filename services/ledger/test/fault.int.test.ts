import type { EnvironmentContext } from '@engage/contracts';
import type { Pool } from '@engage/postgres';
import { randomEnvironment, type ServiceProcess, stackConfig } from '@engage/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdjustmentBody } from './support/adjust.ts';
import { expectSpecAnswer } from './support/answers.ts';
import { expectLedgerInvariants, journalOf, storedBalance } from './support/invariants.ts';
import { readJournalTopic } from './support/journal-topic.ts';
import {
  callLedger,
  type HttpAnswer,
  type LedgerProcess,
  type Observed,
  startLedgerProcess,
} from './support/ledger-process.ts';
import { seededRandom, testSeed } from './support/seeded-random.ts';

let ledger: LedgerProcess;
let service: ServiceProcess;
let pool: Pool;
let topicPrefix: string;

beforeAll(async () => {
  ledger = await startLedgerProcess({ poolSize: 4 });
  service = ledger.service;
  pool = ledger.pool;
  topicPrefix = ledger.topicPrefix;
});

afterAll(async () => {
  await ledger?.stop();
});

const send = (env: EnvironmentContext, body: AdjustmentBody): Promise<Observed> =>
  callLedger(service, { method: 'POST', path: '/v1/points/adjustments', env, playerId: body.playerId, body });

describe('the ledger process killed mid-stream', () => {
  it('never applies a keyed adjustment twice, replays every completed key, and publishes each entry', async () => {
    const random = seededRandom(testSeed('ledger fault'));
    const env = randomEnvironment();
    const players = ['a', 'b', 'c'].map((p) => `${p}-${crypto.randomUUID()}`);
    const requests: AdjustmentBody[] = [
      ...players.map((playerId) => ({ playerId, amount: 200, idempotencyKey: 'opening' })),
      ...Array.from({ length: 240 }, (_, i) => ({
        playerId: players[i % players.length]!,
        amount: random() < 0.5 ? -(1 + Math.floor(random() * 30)) : 1 + Math.floor(random() * 25),
        idempotencyKey: `op-${i}`,
      })),
    ];

    // Eight clients send the requests in order; after 50, 110 and 170 answers the process is
    // SIGKILLed with requests in flight and started again, the clients waiting for it.
    const first: Observed[] = new Array(requests.length);
    const killAfter = [50, 110, 170];
    let answered = 0;
    let next = 0;
    let restarting: Promise<void> | undefined;
    const client = async () => {
      while (next < requests.length) {
        await restarting;
        const i = next++;
        first[i] = await send(env, requests[i]!);
        answered++;
        if (answered >= (killAfter[0] ?? Number.POSITIVE_INFINITY) && !restarting) {
          killAfter.shift();
          restarting = service
            .kill('SIGKILL')
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
    process.stdout.write(`[ledger fault] ${unknown} of ${requests.length} requests saw no answer\n`);

    // Every request again with its key: a completed one answers exactly as before.
    const retried: HttpAnswer[] = [];
    for (let i = 0; i < requests.length; i += 16) {
      const batch = requests.slice(i, i + 16);
      for (const observed of await Promise.all(batch.map((request) => send(env, request)))) {
        if (observed === 'unknown') throw new Error('the restarted ledger did not answer');
        retried.push(observed);
      }
    }
    requests.forEach((request, i) => {
      const answer = retried[i]!;
      expectSpecAnswer(answer, request);
      expect(answer.body.code).not.toBe('points_adjustment.idempotency_key_conflict');
      const original = first[i]!;
      if (original !== 'unknown' && original.body.code !== 'points.concurrent_update') {
        expect(answer).toEqual(original);
      }
    });
    const again = await Promise.all(requests.map((request) => send(env, request)));
    expect(again).toEqual(retried);

    // Nothing applied twice, nothing lost: the journal holds exactly the answered transactions.
    await expectLedgerInvariants(pool, env.environmentId);
    const journal = await journalOf(pool, env.environmentId);
    const succeeded = retried.filter((a) => a.status === 200);
    expect(new Set(journal.map((e) => e.entryId))).toEqual(
      new Set(succeeded.map((a) => a.body.transactionId as string)),
    );
    for (const playerId of players) {
      const expected = requests
        .filter((request, i) => request.playerId === playerId && retried[i]!.status === 200)
        .reduce((sum, request) => sum + request.amount, 0);
      expect(await storedBalance(pool, env.environmentId, playerId)).toBe(expected);
    }

    // The topic carries exactly the committed entries; relay re-sends repeat an entry unchanged.
    const records = await readJournalTopic(
      stackConfig().brokers,
      topicPrefix,
      new Set(journal.map((e) => e.entryId)),
    );
    const ours = records.filter((r) => r.environmentId === env.environmentId);
    const distinct = new Map(ours.map((r) => [r.entryId, r]));
    expect(new Set(distinct.keys())).toEqual(new Set(journal.map((e) => e.entryId)));
    for (const record of ours) expect(record).toEqual(distinct.get(record.entryId));
    for (const entry of journal) {
      expect(distinct.get(entry.entryId)).toMatchObject({
        playerId: entry.playerId,
        amount: entry.amount,
        balanceAfter: entry.balanceAfter,
        idempotencyKey: entry.idempotencyKey,
      });
    }
  });

  it('stops on SIGTERM with exit code 0 after publishing everything it committed', async () => {
    const env = randomEnvironment();
    const playerId = `player-${crypto.randomUUID()}`;
    const answer = await send(env, { playerId, amount: 9, idempotencyKey: 'before-stop' });
    expect(answer).toMatchObject({ status: 200 });
    expect(await service.stop()).toBe(0);
    const { rows } = await pool.query('SELECT count(*)::int AS n FROM outbox WHERE topic LIKE $1', [
      `${topicPrefix}%`,
    ]);
    expect(rows[0]).toEqual({ n: 0 });
    await service.restart();
    expect(await send(env, { playerId, amount: 9, idempotencyKey: 'before-stop' })).toEqual(answer);
  });
});
