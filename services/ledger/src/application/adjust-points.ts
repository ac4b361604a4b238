import { randomUUID } from 'node:crypto';
import type { EnvironmentContext, ProblemDocument } from '@engage/contracts';
import type { Problem } from '@engage/kit';
import type { Pool } from '@engage/postgres';
import type { AdjustmentRequest } from '../domain/adjustment-request.ts';
import { adjustmentClaim } from '../domain/idempotency.ts';
import { type Outcome, runForPlayer, type WriteDeps } from './run-for-player.ts';

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

/**
 * One adjustment, in the player's queue, applied with the batch it joins (see write-queue.ts): a
 * used key replays its answer or is a conflict; otherwise the balance moves unless it would go below
 * zero or past the largest balance, the entry is appended and its record goes to the outbox, and the
 * answer is stored under the key. A refused debit is a business outcome: stored under the key,
 * nothing else written.
 */
export function adjustPoints(
  deps: PointsDeps,
  { environment, request, render }: AdjustmentInput,
): Promise<Outcome> {
  return runForPlayer(deps, {
    kind: 'adjustment',
    organizationId: environment.organizationId,
    environmentId: environment.environmentId,
    playerId: request.playerId,
    idempotencyKey: request.idempotencyKey ?? null,
    claim: adjustmentClaim(request.amount),
    entryId: randomUUID(),
    render,
    amount: request.amount,
    reason: request.reason ?? null,
    createdAt: new Date(),
  });
}
