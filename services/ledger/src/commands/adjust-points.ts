import { randomUUID } from 'node:crypto';
import type { EnvironmentContext, ProblemDocument } from '@engage/contracts';
import type { Problem } from '@engage/kit';
import type { Pool, PoolClient } from '@engage/postgres';
import type { AdjustmentRequest } from '../domain/adjustment-request.ts';
import { adjustmentClaim, judgeRetry, type StoredResponse } from '../domain/idempotency.ts';
import { journalOutboxRow } from '../domain/journal-outbox.ts';
import { balanceLimitReached, idempotencyKeyConflict, insufficientBalance } from '../domain/problems.ts';
import { applyDelta, readBalance } from '../store/balances.ts';
import { claimKey, type KeyRef, readKey, storeResponse } from '../store/idempotency-keys.ts';
import { appendJournalEntryWithRecord, type JournalEntry } from '../store/journal.ts';
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
  return runForPlayer(deps, player, (client) => adjustmentStep(client, deps, input));
}

/**
 * The adjustment's writes, READ COMMITTED: claim the idempotency key, move the balance with one
 * conditional statement, append the journal entry, enqueue its record to the outbox and store the
 * response. A refused debit is a business outcome: stored under the key, nothing else written.
 */
async function adjustmentStep(
  client: PoolClient,
  deps: PointsDeps,
  { environment, request, render }: AdjustmentInput,
): Promise<StepResult> {
  const player = { environmentId: environment.environmentId, playerId: request.playerId };
  const keyRef: KeyRef | undefined = request.idempotencyKey
    ? { ...player, key: request.idempotencyKey }
    : undefined;
  const claim = adjustmentClaim(request.amount);

  if (keyRef && !(await claimKey(client, keyRef, claim))) {
    const stored = await readKey(client, keyRef);
    if (judgeRetry(stored, claim) === 'conflict')
      throw idempotencyKeyConflict('adjustment', stored.operation);
    return { outcome: { ...stored.response, replayed: true }, journaled: false };
  }
  const applied = await applyDelta(client, player, request.amount);
  if ('refused' in applied) {
    const figures = { balance: (await readBalance(client, player))?.balance ?? 0, amount: request.amount };
    const refusal =
      applied.refused === 'insufficient_balance'
        ? insufficientBalance(figures)
        : balanceLimitReached(figures);
    const response: StoredResponse = { status: refusal.status, body: render(refusal) };
    if (keyRef) await storeResponse(client, keyRef, response);
    return { outcome: { ...response, replayed: false }, journaled: false };
  }
  const entry: JournalEntry = {
    entryId: randomUUID(),
    organizationId: environment.organizationId,
    ...player,
    kind: 'adjustment',
    amount: request.amount,
    balanceAfter: applied.balance,
    reason: request.reason ?? null,
    idempotencyKey: request.idempotencyKey ?? null,
    sourceRef: null,
    createdAt: new Date(),
  };
  const response: StoredResponse = {
    status: 200,
    body: { transactionId: entry.entryId, amount: entry.amount, balance: entry.balanceAfter },
  };
  // The entry, its outbox record and the stored answer in one round trip.
  await appendJournalEntryWithRecord(
    client,
    entry,
    journalOutboxRow(entry, deps.topicPrefix),
    keyRef && { ref: keyRef, ...response },
  );
  return { outcome: { ...response, replayed: false }, journaled: true };
}
