import { randomEnvironment } from '@engage/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AdjustmentBody, type Answer, adjust, balanceAnswer } from './support/adjust.ts';
import { expectSpecAnswer } from './support/answers.ts';
import { type InProcessLedger, startInProcessLedger } from './support/in-process-ledger.ts';
import { expectLedgerInvariants, journalOf, storedBalance } from './support/invariants.ts';
import { seededRandom, testSeed } from './support/seeded-random.ts';

let ledger: InProcessLedger;
beforeAll(async () => {
  ledger = await startInProcessLedger();
});
afterAll(() => ledger.close());

describe('concurrent adjustments of one player', () => {
  it('applies 20 parallel requests with the same key once, answering all of them alike', async () => {
    const env = randomEnvironment();
    const playerId = `player-${crypto.randomUUID()}`;
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        adjust(ledger.app, env, { playerId, amount: 15, idempotencyKey: 'once' }),
      ),
    );
    expect(answers.filter((a) => !a.replayed)).toHaveLength(1);
    for (const answer of answers)
      expect({ status: answer.status, body: answer.body }).toEqual({
        status: 200,
        body: answers[0]!.body,
      });
    expect(await storedBalance(ledger.pool, env.environmentId, playerId)).toBe(15);
    await expectLedgerInvariants(ledger.pool, env.environmentId);
  });

  it('keeps 200 parallel credits and debits, with and without shared keys, sound', async () => {
    const random = seededRandom(testSeed('ledger concurrency'));
    const env = randomEnvironment();
    const playerId = `player-${crypto.randomUUID()}`;
    const opening = await adjust(ledger.app, env, { playerId, amount: 300 });
    expect(opening.status).toBe(200);

    const keyAmounts = new Map<string, number>();
    const requests: AdjustmentBody[] = Array.from({ length: 200 }, () => {
      const amount = random() < 0.55 ? -(1 + Math.floor(random() * 40)) : 1 + Math.floor(random() * 30);
      const draw = random();
      if (draw < 0.35) return { playerId, amount };
      const key = `shared-${Math.floor(random() * 30)}`;
      const bound = keyAmounts.get(key) ?? amount;
      keyAmounts.set(key, bound);
      // One request in ten reuses a key with another amount: a conflict, or the key's one effect.
      const otherAmount = bound === -1 ? 1 : bound + 1;
      return { playerId, amount: draw > 0.9 ? otherAmount : bound, idempotencyKey: key };
    });

    const reads: Promise<{ status: number; body: { balance: number } }>[] = [];
    const answers = await Promise.all(
      requests.map((request, i) => {
        if (i % 10 === 0) reads.push(balanceAnswer(ledger.app, env, playerId));
        return adjust(ledger.app, env, request);
      }),
    );
    for (const read of await Promise.all(reads)) expect(read.body.balance).toBeGreaterThanOrEqual(0);
    requests.forEach((request, i) => {
      expectSpecAnswer(answers[i]!, request);
    });

    // Each key has one outcome: every answer for it that is not a refusal to run (a conflict, or a
    // concurrent update that wrote nothing) is the same status and body.
    const notOutcomes = ['points_adjustment.idempotency_key_conflict', 'points.concurrent_update'];
    const byKey = new Map<string, Answer[]>();
    requests.forEach((request, i) => {
      const answer = answers[i]!;
      if (!request.idempotencyKey || notOutcomes.includes(answer.body.code as string)) return;
      byKey.set(request.idempotencyKey, [...(byKey.get(request.idempotencyKey) ?? []), answer]);
    });
    for (const keyed of byKey.values()) {
      for (const answer of keyed) expect(answer.body).toEqual(keyed[0]!.body);
    }
    expect(answers.some((a) => a.replayed)).toBe(true);

    const applied = new Map<string, number>();
    for (const answer of [opening, ...answers]) {
      if (answer.status === 200)
        applied.set(answer.body.transactionId as string, answer.body.amount as number);
    }
    const journal = await journalOf(ledger.pool, env.environmentId, playerId);
    expect(new Set(journal.map((e) => e.entryId))).toEqual(new Set(applied.keys()));
    const expected = [...applied.values()].reduce((sum, amount) => sum + amount, 0);
    expect(await storedBalance(ledger.pool, env.environmentId, playerId)).toBe(expected);
    await expectLedgerInvariants(ledger.pool, env.environmentId);
  });
});
