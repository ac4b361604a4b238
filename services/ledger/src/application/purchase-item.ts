import { randomUUID } from 'node:crypto';
import type { EnvironmentContext, ProblemDocument } from '@engage/contracts';
import type { Problem } from '@engage/kit';
import { purchaseClaim } from '../domain/idempotency.ts';
import type { Buyer } from '../domain/purchase-checks.ts';
import type { PointsDeps } from './adjust-points.ts';
import { type Outcome, runForPlayer } from './run-for-player.ts';

export interface PurchaseRequest {
  playerId: string;
  idempotencyKey?: string | undefined;
  expectedPriceInPoints?: number | undefined;
}

export interface PurchaseDeps extends PointsDeps {
  clock?: () => Date;
}

export interface PurchaseInput {
  environment: EnvironmentContext;
  itemKey: string;
  buyer: Buyer;
  request: PurchaseRequest;
  render: (problem: Problem) => ProblemDocument;
}

/**
 * One purchase, in the player's queue, applied with the batch it joins (see write-queue.ts): a used
 * key replays its answer, whatever the item became since; then the definition and the player are
 * checked (a refusal writes nothing and leaves the key free); then the balance, the purchase limit and
 * the stock, whose refusals are the purchase's stored outcome. A purchase that passes is charged,
 * counted, takes its unit, is journaled with its record in the outbox, and grants its contents.
 */
export function purchaseItem(deps: PurchaseDeps, input: PurchaseInput): Promise<Outcome> {
  const { environment, itemKey, request } = input;
  return runForPlayer(deps, {
    kind: 'purchase',
    organizationId: environment.organizationId,
    environmentId: environment.environmentId,
    playerId: request.playerId,
    idempotencyKey: request.idempotencyKey ?? null,
    claim: purchaseClaim(itemKey),
    entryId: randomUUID(),
    render: input.render,
    itemKey,
    buyer: input.buyer,
    expectedPriceInPoints: request.expectedPriceInPoints,
    purchaseId: randomUUID(),
    now: deps.clock?.() ?? new Date(),
  });
}
