import { randomUUID } from 'node:crypto';
import type { EnvironmentContext, ProblemDocument } from '@engage/contracts';
import type { MarketplaceItemDefinition } from '@engage/contracts/environment/shop.ts';
import type { Problem } from '@engage/kit';

import { judgeRetry, type KeyClaim, purchaseClaim, type StoredResponse } from '../domain/idempotency.ts';
import { occurrenceAt } from '../domain/item-occurrence.ts';
import { journalOutboxRow } from '../domain/journal-outbox.ts';
import {
  idempotencyKeyConflict,
  insufficientBalance,
  marketplaceItemOutOfStock,
  purchaseLimitReached,
} from '../domain/problems.ts';
import { type Buyer, purchaseRefusal } from '../domain/purchase-checks.ts';
import { type StoredKeyRow, storedKeyOf } from '../store/idempotency-keys.ts';
import {
  loadPurchaseContext,
  type PurchaseWrite,
  type PurchaseWritten,
  refusePurchase,
  writePurchase,
} from '../store/purchases.ts';
import type { PointsDeps } from './adjust-points.ts';
import type { WriteTransaction } from './player-batcher.ts';
import { type Outcome, runForPlayer, type StepResult } from './run-for-player.ts';

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

/** One purchase, in the player's queue (see player-batcher.ts). */
export function purchaseItem(deps: PurchaseDeps, input: PurchaseInput): Promise<Outcome> {
  const player = { environmentId: input.environment.environmentId, playerId: input.request.playerId };
  return runForPlayer(deps, player, (tx) => purchaseStep(tx, deps, input));
}

/**
 * The purchase, READ COMMITTED, in two statements: read the item and the key (a used key replays its
 * answer, whatever the item became since), check the definition and the player (a refusal is thrown:
 * nothing is written and the key stays free), then write every effect in one statement (see
 * writePurchase). A refusal of the balance, the purchase limit or the stock is the purchase's stored
 * outcome: what the statement wrote before it is undone in the same transaction.
 */
async function purchaseStep(
  tx: WriteTransaction,
  deps: PurchaseDeps,
  input: PurchaseInput,
): Promise<StepResult> {
  const { environment, itemKey, request } = input;
  const player = { environmentId: environment.environmentId, playerId: request.playerId };
  const claim = purchaseClaim(itemKey);
  const now = deps.clock?.() ?? new Date();

  const { item, keyUsed } = await loadPurchaseContext(tx.client, {
    ...player,
    itemKey,
    key: request.idempotencyKey ?? null,
  });
  if (keyUsed) return replay(keyUsed, claim);
  const refusal = purchaseRefusal(item, input.buyer, now, request.expectedPriceInPoints);
  if (refusal || !item) throw refusal;

  const write = purchaseWrite(environment, item, request, claim, now);
  const written = await writePurchase(tx.client, write);
  if ('keyUsed' in written) return replay(written.keyUsed, claim);
  if ('refused' in written) {
    const problem = refusalOf(written, write);
    const response: StoredResponse = { status: problem.status, body: input.render(problem) };
    await refusePurchase(tx.client, write, written, response);
    return { outcome: { ...response, replayed: false }, journaled: false };
  }
  if (write.entryId) {
    tx.publish(
      journalOutboxRow(
        {
          entryId: write.entryId,
          organizationId: write.organizationId,
          ...player,
          kind: 'purchase',
          amount: -write.price,
          balanceAfter: written.balanceAfter,
          reason: write.reason,
          idempotencyKey: write.idempotencyKey,
          sourceRef: write.purchaseId,
          createdAt: write.createdAt,
        },
        deps.topicPrefix,
      ),
    );
  }
  return {
    outcome: { status: 200, body: { ...write.answer, balance: written.balanceAfter }, replayed: false },
    journaled: write.entryId !== null,
  };
}

function replay(row: StoredKeyRow, claim: KeyClaim): StepResult {
  const stored = storedKeyOf(row);
  if (judgeRetry(stored, claim) === 'conflict') throw idempotencyKeyConflict('purchase', stored.operation);
  return { outcome: { ...stored.response, replayed: true }, journaled: false };
}

function purchaseWrite(
  environment: EnvironmentContext,
  item: MarketplaceItemDefinition,
  request: PurchaseRequest,
  claim: KeyClaim,
  now: Date,
): PurchaseWrite {
  const occurrence = occurrenceAt(item, now).number;
  const purchaseId = randomUUID();
  const entryId = item.priceInPoints > 0 ? randomUUID() : null;
  return {
    purchaseId,
    organizationId: environment.organizationId,
    environmentId: environment.environmentId,
    playerId: request.playerId,
    idempotencyKey: request.idempotencyKey ?? null,
    claim,
    itemKey: item.key,
    occurrence,
    price: item.priceInPoints,
    purchaseLimit: item.purchaseLimit,
    stock: item.stock,
    contents: item.contents,
    entryId,
    reason: `marketplace item ${item.key}`,
    createdAt: now,
    answer: {
      purchaseId,
      transactionId: entryId,
      playerId: request.playerId,
      marketplaceItemKey: item.key,
      occurrenceNumber: occurrence,
      priceInPoints: item.priceInPoints,
      contents: item.contents,
      purchasedAtUtc: now.toISOString(),
    },
  };
}

function refusalOf(written: Extract<PurchaseWritten, { refused: string }>, write: PurchaseWrite): Problem {
  switch (written.refused) {
    case 'insufficient_balance':
      return insufficientBalance({ balance: written.balance, amount: -write.price });
    case 'purchase_limit_reached':
      return purchaseLimitReached({
        purchaseLimit: write.purchaseLimit ?? 0,
        occurrenceNumber: write.occurrence,
      });
    case 'out_of_stock':
      return marketplaceItemOutOfStock({ stock: write.stock ?? 0, occurrenceNumber: write.occurrence });
  }
}
