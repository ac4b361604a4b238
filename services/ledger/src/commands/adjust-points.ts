import { randomUUID } from 'node:crypto';
import { type EnvironmentContext, type ProblemDocument, topics } from '@engage/contracts';
import { enqueueOutbox } from '@engage/kafka';
import type { Problem } from '@engage/kit';
import { type Pool, TransactionRetriesExhausted, withTransaction } from '@engage/postgres';
import type { AdjustmentRequest } from '../domain/adjustment-request.ts';
import { adjustmentClaim, judgeRetry, type StoredResponse } from '../domain/idempotency.ts';
import { journalRecord } from '../domain/journal-record.ts';
import {
  balanceLimitReached,
  concurrentUpdate,
  idempotencyKeyConflict,
  insufficientBalance,
} from '../domain/problems.ts';
import { applyDelta, readBalance } from '../store/balances.ts';
import { claimKey, type KeyRef, readKey, storeResponse } from '../store/idempotency-keys.ts';
import { appendJournalEntry } from '../store/journal.ts';

export interface PointsDeps {
  pool: Pool;
  topicPrefix: string;
  /** Called after a commit that enqueued journal records, so the relay publishes them soon. */
  onJournalCommitted: () => void;
}

export interface AdjustmentOutcome extends StoredResponse {
  /** True when the response is the stored outcome of an earlier request with the same key. */
  replayed: boolean;
}

/**
 * One adjustment, one READ COMMITTED transaction: claim the idempotency key, move the balance with
 * one conditional statement, append the journal entry, enqueue its record to the outbox and store
 * the response. A refused debit is a business outcome: stored under the key, nothing else written.
 */
export async function adjustPoints(
  deps: PointsDeps,
  input: {
    environment: EnvironmentContext;
    request: AdjustmentRequest;
    /** Renders a refusal as the problem document the caller (and every retry) receives. */
    render: (problem: Problem) => ProblemDocument;
  },
): Promise<AdjustmentOutcome> {
  const { environment, request, render } = input;
  const player = { environmentId: environment.environmentId, playerId: request.playerId };
  const keyRef: KeyRef | undefined = request.idempotencyKey
    ? { ...player, key: request.idempotencyKey }
    : undefined;
  const claim = adjustmentClaim(request.amount);

  let journaled = false;
  const outcome = await withTransaction(deps.pool, async (client) => {
    journaled = false;
    if (keyRef && !(await claimKey(client, keyRef, claim))) {
      const stored = await readKey(client, keyRef);
      if (judgeRetry(stored, claim) === 'conflict')
        throw idempotencyKeyConflict('adjustment', stored.operation);
      return { ...stored.response, replayed: true };
    }
    const applied = await applyDelta(client, player, request.amount);
    let response: StoredResponse;
    if ('refused' in applied) {
      const figures = { balance: (await readBalance(client, player))?.balance ?? 0, amount: request.amount };
      const refusal =
        applied.refused === 'insufficient_balance'
          ? insufficientBalance(figures)
          : balanceLimitReached(figures);
      response = { status: refusal.status, body: render(refusal) };
    } else {
      const entry = await appendJournalEntry(client, {
        entryId: randomUUID(),
        organizationId: environment.organizationId,
        ...player,
        kind: 'adjustment',
        amount: request.amount,
        balanceAfter: applied.balance,
        reason: request.reason ?? null,
        idempotencyKey: request.idempotencyKey ?? null,
        sourceRef: null,
      });
      await enqueueOutbox(client, topics.pointsJournal, deps.topicPrefix, [journalRecord(entry)]);
      journaled = true;
      response = {
        status: 200,
        body: { transactionId: entry.entryId, amount: entry.amount, balance: entry.balanceAfter },
      };
    }
    if (keyRef) await storeResponse(client, keyRef, response);
    return { ...response, replayed: false };
  }).catch((err: unknown) => {
    throw err instanceof TransactionRetriesExhausted ? concurrentUpdate() : err;
  });
  if (journaled) deps.onJournalCommitted();
  return outcome;
}
