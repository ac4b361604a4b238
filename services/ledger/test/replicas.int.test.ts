import { randomEnvironment } from '@engage/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AdjustmentBody, type Answer, adjust } from './support/adjust.ts';
import { expectSpecAnswer } from './support/answers.ts';
import { type InProcessLedger, startInProcessLedger } from './support/in-process-ledger.ts';
import { expectLedgerInvariants, journalOf, storedBalance } from './support/invariants.ts';
import { seededRandom, testSeed } from './support/seeded-random.ts';

// Two replicas: each has its own write queue, so batches of the two race for the same balance rows
// (new players' rows inserted by both, existing ones locked by both) and the same keys.
let replicas: InProcessLedger[];
beforeAll(async () => {
  replicas = [await startInProcessLedger(), await startInProcessLedger()];
});
afterAll(async () => {
  for (const replica of replicas ?? []) await replica.close();
});

describe('two replicas writing the same players', () => {
  it('applies every keyed request once, keeps balances equal to the journal and never below zero', async () => {
    const random = seededRandom(testSeed('ledger replicas'));
    const env = randomEnvironment();
    const players = Array.from({ length: 6 }, (_, i) => `player-${i}-${crypto.randomUUID()}`);
    const keyBodies = new Map<string, AdjustmentBody>();
    const requests: AdjustmentBody[] = Array.from({ length: 240 }, () => {
      const playerId = players[Math.floor(random() * players.length)]!;
      const amount = random() < 0.5 ? -(1 + Math.floor(random() * 20)) : 1 + Math.floor(random() * 25);
      if (random() < 0.3) return { playerId, amount };
      // A key is sent more than once (to either replica) with the same body: one effect, the rest replay.
      const key = `k-${Math.floor(random() * 60)}`;
      const body = keyBodies.get(key) ?? { playerId, amount, idempotencyKey: key };
      keyBodies.set(key, body);
      return body;
    });

    const answers = await Promise.all(
      requests.map((request, i) => adjust(replicas[i % 2]!.app, env, request)),
    );
    requests.forEach((request, i) => {
      expectSpecAnswer(answers[i]!, request);
    });
    expect(answers.filter((a) => a.status >= 500)).toEqual([]);

    const byKey = new Map<string, Answer[]>();
    requests.forEach((request, i) => {
      const answer = answers[i]!;
      if (!request.idempotencyKey || answer.body.code === 'points.concurrent_update') return;
      byKey.set(request.idempotencyKey, [...(byKey.get(request.idempotencyKey) ?? []), answer]);
    });
    for (const keyed of byKey.values()) {
      expect(keyed.filter((a) => !a.replayed)).toHaveLength(1);
      for (const answer of keyed) expect(answer.body).toEqual(keyed[0]!.body);
    }

    const { pool } = replicas[0]!;
    for (const playerId of players) {
      const applied = new Map<string, number>();
      requests.forEach((request, i) => {
        const answer = answers[i]!;
        if (request.playerId === playerId && answer.status === 200)
          applied.set(answer.body.transactionId as string, answer.body.amount as number);
      });
      const journal = await journalOf(pool, env.environmentId, playerId);
      expect(new Set(journal.map((e) => e.entryId))).toEqual(new Set(applied.keys()));
      const expected = [...applied.values()].reduce((sum, amount) => sum + amount, 0);
      expect(await storedBalance(pool, env.environmentId, playerId)).toBe(expected);
    }
    await expectLedgerInvariants(pool, env.environmentId);
  });
});
