import { randomEnvironment } from '@engage/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adjustmentClaim, purchaseClaim } from '../src/domain/idempotency.ts';
import { MAX_BALANCE } from '../src/domain/limits.ts';
import { adjust, balanceAnswer } from './support/adjust.ts';
import { type InProcessLedger, startInProcessLedger } from './support/in-process-ledger.ts';
import { expectLedgerInvariants, journalOf, storedBalance } from './support/invariants.ts';
import { readJournalTopic } from './support/journal-topic.ts';

let ledger: InProcessLedger;
beforeAll(async () => {
  ledger = await startInProcessLedger();
});
afterAll(() => ledger.close());

const newPlayer = () => `player-${crypto.randomUUID()}`;

describe('GET /v1/points', () => {
  it('answers 0 with no updatedAtUtc for a player the environment never saw', async () => {
    const env = randomEnvironment();
    const playerId = newPlayer();
    const res = await balanceAnswer(ledger.app, env, playerId);
    expect(res).toEqual({ status: 200, body: { playerId, balance: 0, updatedAtUtc: null } });
  });

  it('keeps balances apart per environment', async () => {
    const [envA, envB] = [randomEnvironment(), randomEnvironment('Live')];
    const playerId = newPlayer();
    await adjust(ledger.app, envA, { playerId, amount: 40 });
    expect((await balanceAnswer(ledger.app, envA, playerId)).body.balance).toBe(40);
    expect((await balanceAnswer(ledger.app, envB, playerId)).body.balance).toBe(0);
  });
});

describe('POST /v1/points/adjustments', () => {
  it('credits and debits, answering the transaction, the amount and the balance after', async () => {
    const env = randomEnvironment();
    const playerId = newPlayer();
    const credit = await adjust(ledger.app, env, { playerId, amount: 100, reason: 'welcome bonus' });
    expect(credit.status).toBe(200);
    expect(credit.body).toEqual({ transactionId: expect.any(String), amount: 100, balance: 100 });
    const debit = await adjust(ledger.app, env, { playerId, amount: -30 });
    expect(debit.body).toEqual({ transactionId: expect.any(String), amount: -30, balance: 70 });

    const read = await balanceAnswer(ledger.app, env, playerId);
    expect(read.body).toMatchObject({ playerId, balance: 70 });
    expect(Date.parse(read.body.updatedAtUtc)).not.toBeNaN();

    const journal = await journalOf(ledger.pool, env.environmentId, playerId);
    expect(journal).toEqual([
      expect.objectContaining({
        entryId: credit.body.transactionId,
        kind: 'adjustment',
        amount: 100,
        balanceAfter: 100,
      }),
      expect.objectContaining({ entryId: debit.body.transactionId, amount: -30, balanceAfter: 70 }),
    ]);
    await expectLedgerInvariants(ledger.pool, env.environmentId);
  });

  it('refuses a debit larger than the balance with 409 and writes nothing', async () => {
    const env = randomEnvironment();
    const playerId = newPlayer();
    await adjust(ledger.app, env, { playerId, amount: 10 });
    const refused = await adjust(ledger.app, env, { playerId, amount: -11 });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({
      code: 'points.insufficient_balance',
      instance: '/v1/points/adjustments',
    });
    const unseen = await adjust(ledger.app, env, { playerId: newPlayer(), amount: -1 });
    expect(unseen.body.code).toBe('points.insufficient_balance');

    expect(await storedBalance(ledger.pool, env.environmentId, playerId)).toBe(10);
    expect(await journalOf(ledger.pool, env.environmentId)).toHaveLength(1);
    const exact = await adjust(ledger.app, env, { playerId, amount: -10 });
    expect(exact.body.balance).toBe(0);
    await expectLedgerInvariants(ledger.pool, env.environmentId);
  });

  it('refuses a credit past the largest balance kept with points.balance_limit_reached', async () => {
    const env = randomEnvironment();
    const playerId = newPlayer();
    const nearlyFull = MAX_BALANCE - 5;
    // Seeded directly: reaching it through the API would take thousands of maximal credits.
    await ledger.pool.query(
      `WITH j AS (INSERT INTO journal (entry_id, organization_id, environment_id, player_id, kind, amount, balance_after)
                  VALUES (gen_random_uuid(), $1, $2, $3, 'adjustment', $4, $4))
       INSERT INTO balances (environment_id, player_id, balance) VALUES ($2, $3, $4)`,
      [env.organizationId, env.environmentId, playerId, nearlyFull],
    );
    const refused = await adjust(ledger.app, env, { playerId, amount: 6 });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: 'points.balance_limit_reached' });
    const filled = await adjust(ledger.app, env, { playerId, amount: 5 });
    expect(filled.body.balance).toBe(MAX_BALANCE);
    await expectLedgerInvariants(ledger.pool, env.environmentId);
  });

  it('replays a keyed adjustment with the identical status and body, moving nothing', async () => {
    const env = randomEnvironment();
    const playerId = newPlayer();
    const first = await adjust(ledger.app, env, { playerId, amount: 25, idempotencyKey: 'grant-1' });
    expect(first.replayed).toBe(false);
    const retry = await adjust(ledger.app, env, { playerId, amount: 25, idempotencyKey: 'grant-1' });
    expect(retry).toEqual({ ...first, replayed: true });
    // The reason is not part of the key's identity: a reworded retry still replays.
    const reworded = await adjust(ledger.app, env, {
      playerId,
      amount: 25,
      reason: 'again',
      idempotencyKey: 'grant-1',
    });
    expect(reworded.body).toEqual(first.body);
    expect(await storedBalance(ledger.pool, env.environmentId, playerId)).toBe(25);
    expect(await journalOf(ledger.pool, env.environmentId)).toHaveLength(1);
  });

  it('stores a refused keyed debit as its outcome: the retry gets the same 409 even after a top-up', async () => {
    const env = randomEnvironment();
    const playerId = newPlayer();
    const refused = await adjust(ledger.app, env, { playerId, amount: -5, idempotencyKey: 'spend' });
    expect(refused.status).toBe(409);
    await adjust(ledger.app, env, { playerId, amount: 50 });
    const retry = await adjust(ledger.app, env, { playerId, amount: -5, idempotencyKey: 'spend' });
    expect(retry).toEqual({ ...refused, replayed: true });
    expect(await storedBalance(ledger.pool, env.environmentId, playerId)).toBe(50);
  });

  it('scopes keys per player and environment', async () => {
    const env = randomEnvironment();
    const [a, b] = [newPlayer(), newPlayer()];
    await adjust(ledger.app, env, { playerId: a, amount: 5, idempotencyKey: 'same' });
    const other = await adjust(ledger.app, env, { playerId: b, amount: 5, idempotencyKey: 'same' });
    expect(other.replayed).toBe(false);
    const otherEnv = await adjust(ledger.app, randomEnvironment(), {
      playerId: a,
      amount: 5,
      idempotencyKey: 'same',
    });
    expect(otherEnv.replayed).toBe(false);
    expect(await storedBalance(ledger.pool, env.environmentId, b)).toBe(5);
  });

  it('refuses a key reused for a different amount with points_adjustment.idempotency_key_conflict', async () => {
    const env = randomEnvironment();
    const playerId = newPlayer();
    await adjust(ledger.app, env, { playerId, amount: 10, idempotencyKey: 'k' });
    const conflict = await adjust(ledger.app, env, { playerId, amount: 11, idempotencyKey: 'k' });
    expect(conflict.status).toBe(409);
    expect(conflict.body).toMatchObject({ code: 'points_adjustment.idempotency_key_conflict' });
    expect(await storedBalance(ledger.pool, env.environmentId, playerId)).toBe(10);
  });

  it('refuses a key already used by a purchase with points_adjustment.idempotency_key_conflict', async () => {
    const env = randomEnvironment();
    const playerId = newPlayer();
    const claim = purchaseClaim('sword');
    await ledger.pool.query(
      `INSERT INTO idempotency_keys (environment_id, player_id, key, operation, request_hash, target,
                                     response_status, response_body)
       VALUES ($1, $2, 'bought', $3, $4, $5, 200, '{}')`,
      [env.environmentId, playerId, claim.operation, claim.requestHash, claim.target],
    );
    // Even an amount whose text equals the purchase's target is a different request.
    expect(adjustmentClaim(10).requestHash).not.toBe(purchaseClaim('10').requestHash);
    const conflict = await adjust(ledger.app, env, { playerId, amount: 10, idempotencyKey: 'bought' });
    expect(conflict.status).toBe(409);
    expect(conflict.body).toMatchObject({
      code: 'points_adjustment.idempotency_key_conflict',
      errors: [{ meta: { usedBy: 'purchase' } }],
    });
    expect(await journalOf(ledger.pool, env.environmentId)).toEqual([]);
  });

  it('applies a retry without a key again', async () => {
    const env = randomEnvironment();
    const playerId = newPlayer();
    const first = await adjust(ledger.app, env, { playerId, amount: 7 });
    const second = await adjust(ledger.app, env, { playerId, amount: 7 });
    expect(second.body.transactionId).not.toBe(first.body.transactionId);
    expect(second.body.balance).toBe(14);
    await expectLedgerInvariants(ledger.pool, env.environmentId);
  });

  it('refuses to update or delete journal entries', async () => {
    const env = randomEnvironment();
    const playerId = newPlayer();
    await adjust(ledger.app, env, { playerId, amount: 3 });
    await expect(
      ledger.pool.query('UPDATE journal SET amount = 4 WHERE environment_id = $1', [env.environmentId]),
    ).rejects.toThrow(/append-only/);
    await expect(
      ledger.pool.query('DELETE FROM journal WHERE environment_id = $1', [env.environmentId]),
    ).rejects.toThrow(/append-only/);
    expect(await journalOf(ledger.pool, env.environmentId)).toHaveLength(1);
  });

  it('publishes exactly the committed entries to points.journal.v1', async () => {
    const env = randomEnvironment();
    const playerId = newPlayer();
    await adjust(ledger.app, env, { playerId, amount: 20, reason: 'r', idempotencyKey: 'a' });
    await adjust(ledger.app, env, { playerId, amount: -50 }); // refused: nothing to publish
    await adjust(ledger.app, env, { playerId, amount: -5 });
    const journal = await journalOf(ledger.pool, env.environmentId);
    const records = await readJournalTopic(
      ledger.brokers,
      ledger.topicPrefix,
      new Set(journal.map((e) => e.entryId)),
    );
    const ours = records.filter((r) => r.environmentId === env.environmentId);
    expect(new Set(ours.map((r) => r.entryId))).toEqual(new Set(journal.map((e) => e.entryId)));
    expect(ours.find((r) => r.amount === 20)).toMatchObject({
      organizationId: env.organizationId,
      playerId,
      kind: 'adjustment',
      balanceAfter: 20,
      reason: 'r',
      idempotencyKey: 'a',
      sourceRef: null,
    });
  });
});
