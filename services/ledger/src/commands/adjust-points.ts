import { randomUUID } from 'node:crypto';
import type { EnvironmentContext, ProblemDocument } from '@engage/contracts';
import type { Problem } from '@engage/kit';
import type { Pool } from '@engage/postgres';
import type { AdjustmentRequest } from '../domain/adjustment-request.ts';
import { adjustmentClaim, judgeRetry, type StoredResponse } from '../domain/idempotency.ts';
import { journalOutboxRow } from '../domain/journal-outbox.ts';
import { balanceLimitReached, idempotencyKeyConflict, insufficientBalance } from '../domain/problems.ts';
import { writeAdjustment } from '../store/adjustments.ts';
import { insertKeyWithResponse, type KeyRef, storedKeyOf } from '../store/idempotency-keys.ts';
import type { JournalEntry } from '../store/journal.ts';
import type { WriteTransaction } from './player-batcher.ts';
import { type Outcome, runForPlayer, type StepResult, type WriteDeps } from './run-for-player.ts';

export interface PointsDeps extends WriteDeps {
  pool: Pool;
  topicPrefix: string;
}

export type AdjustmentOutcome = Outcome;

export interface AdjustmentInput {
  environment: EnvironmentContext;
  request: AdjustmentRequest;
  /** Renders a refusal as the problem document the caller (and every retry) receives. */
  render: (problem: Problem) => ProblemDocument;
}

/** One adjustment, in the player's queue (see player-batcher.ts). */
export function adjustPoints(deps: PointsDeps, input: AdjustmentInput): Promise<AdjustmentOutcome> {
  const player = { environmentId: input.environment.environmentId, playerId: input.request.playerId };
  return runForPlayer(deps, player, (tx) => adjustmentStep(tx, deps, input));
}

/**
 * The adjustment, READ COMMITTED, in one statement (see writeAdjustment): a used key replays its
 * answer or is a conflict; otherwise the balance moves, the entry is appended and the answer stored
 * under the key, and the entry's record goes to the outbox with the transaction. A refused debit is a
 * business outcome: stored under the key, nothing else written.
 */
async function adjustmentStep(
  tx: WriteTransaction,
  deps: PointsDeps,
  { environment, request, render }: AdjustmentInput,
): Promise<StepResult> {
  const player = { environmentId: environment.environmentId, playerId: request.playerId };
  const claim = adjustmentClaim(request.amount);
  const entry: JournalEntry = {
    entryId: randomUUID(),
    organizationId: environment.organizationId,
    ...player,
    kind: 'adjustment',
    amount: request.amount,
    balanceAfter: 0,
    reason: request.reason ?? null,
    idempotencyKey: request.idempotencyKey ?? null,
    sourceRef: null,
    createdAt: new Date(),
  };

  const written = await writeAdjustment(tx.client, { entry, claim });
  if ('keyUsed' in written) {
    const stored = storedKeyOf(written.keyUsed);
    if (judgeRetry(stored, claim) === 'conflict')
      throw idempotencyKeyConflict('adjustment', stored.operation);
    return { outcome: { ...stored.response, replayed: true }, journaled: false };
  }
  if ('refused' in written) {
    const figures = { balance: written.balance, amount: request.amount };
    const refusal =
      written.refused === 'insufficient_balance'
        ? insufficientBalance(figures)
        : balanceLimitReached(figures);
    const response: StoredResponse = { status: refusal.status, body: render(refusal) };
    const keyRef: KeyRef | undefined = request.idempotencyKey
      ? { ...player, key: request.idempotencyKey }
      : undefined;
    if (keyRef) await insertKeyWithResponse(tx.client, keyRef, claim, response);
    return { outcome: { ...response, replayed: false }, journaled: false };
  }
  const done: JournalEntry = { ...entry, balanceAfter: written.balanceAfter };
  tx.publish(journalOutboxRow(done, deps.topicPrefix));
  const body = { transactionId: done.entryId, amount: done.amount, balance: done.balanceAfter };
  return { outcome: { status: 200, body, replayed: false }, journaled: true };
}
