import { randomUUID } from 'node:crypto';
import { type EnvironmentContext, type ProblemDocument, topics } from '@engage/contracts';
import type { MarketplaceItemDefinition } from '@engage/contracts/environment/shop.ts';
import { enqueueOutbox } from '@engage/kafka';
import type { Problem } from '@engage/kit';
import type { PoolClient } from '@engage/postgres';
import { judgeRetry, purchaseClaim, type StoredResponse } from '../domain/idempotency.ts';
import { occurrenceAt } from '../domain/item-occurrence.ts';
import { journalRecord } from '../domain/journal-record.ts';
import {
  idempotencyKeyConflict,
  insufficientBalance,
  marketplaceItemOutOfStock,
  purchaseLimitReached,
} from '../domain/problems.ts';
import { type Buyer, purchaseRefusal } from '../domain/purchase-checks.ts';
import { applyDelta, type PlayerRef, readBalance } from '../store/balances.ts';
import { claimKey, type KeyRef, readKey, storeResponse } from '../store/idempotency-keys.ts';
import { appendJournalEntry } from '../store/journal.ts';
import { recordPlayerItems } from '../store/player-items.ts';
import { recordPurchase } from '../store/purchases.ts';
import { countPurchase, takeUnit } from '../store/shop-counters.ts';
import { loadItem } from '../store/shop-definitions.ts';
import type { PointsDeps } from './adjust-points.ts';
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
  return runForPlayer(deps, player, (client) => purchaseStep(client, deps, input));
}

/**
 * The purchase's writes, READ COMMITTED: claim the key (a replay answers here, whatever the item
 * became since), check the definition and the player (a refusal is thrown: nothing stays written and
 * the key stays free), then debit the balance, count the player's purchase and take a unit of stock,
 * each with one conditional statement. A refusal of those three is the purchase's stored outcome: the
 * savepoint undoes what the others wrote. Success appends the journal entry, its outbox record, the
 * purchase and the items granted, and stores the answer under the key.
 */
async function purchaseStep(
  client: PoolClient,
  deps: PurchaseDeps,
  input: PurchaseInput,
): Promise<StepResult> {
  const { environment, itemKey, request } = input;
  const player: PlayerRef = { environmentId: environment.environmentId, playerId: request.playerId };
  const keyRef: KeyRef | undefined = request.idempotencyKey
    ? { ...player, key: request.idempotencyKey }
    : undefined;
  const claim = purchaseClaim(itemKey);
  const now = deps.clock?.() ?? new Date();

  if (keyRef && !(await claimKey(client, keyRef, claim))) {
    const stored = await readKey(client, keyRef);
    if (judgeRetry(stored, claim) === 'conflict') throw idempotencyKeyConflict('purchase', stored.operation);
    return { outcome: { ...stored.response, replayed: true }, journaled: false };
  }
  const item = await loadItem(client, environment.environmentId, itemKey);
  const refusal = purchaseRefusal(item, input.buyer, now, request.expectedPriceInPoints);
  if (refusal || !item) throw refusal;

  const response = await charge(client, deps, {
    environment,
    player,
    item,
    request,
    now,
    render: input.render,
  });
  if (keyRef) await storeResponse(client, keyRef, response);
  return {
    outcome: { ...response, replayed: false },
    journaled: response.status === 200 && item.priceInPoints > 0,
  };
}

async function charge(
  client: PoolClient,
  deps: PointsDeps,
  input: {
    environment: EnvironmentContext;
    player: PlayerRef;
    item: MarketplaceItemDefinition;
    request: PurchaseRequest;
    now: Date;
    render: (problem: Problem) => ProblemDocument;
  },
): Promise<StoredResponse> {
  const { environment, player, item, request } = input;
  const occurrence = occurrenceAt(item, input.now).number;
  const ref = { itemKey: item.key, occurrence };
  const price = item.priceInPoints;

  await client.query('SAVEPOINT purchase_effects');
  const refuse = async (problem: Problem): Promise<StoredResponse> => {
    await client.query('ROLLBACK TO SAVEPOINT purchase_effects');
    return { status: problem.status, body: input.render(problem) };
  };
  // Balance first (the player's own row), the shared stock row last, so a purchase waits on the
  // stock lock only once it holds everything else it needs.
  let balanceAfter: number;
  if (price > 0) {
    const debited = await applyDelta(client, player, -price);
    if ('refused' in debited) {
      const balance = (await readBalance(client, player))?.balance ?? 0;
      return refuse(insufficientBalance({ balance, amount: -price }));
    }
    balanceAfter = debited.balance;
  } else {
    balanceAfter = (await readBalance(client, player))?.balance ?? 0;
  }
  if (!(await countPurchase(client, environment.environmentId, player.playerId, ref, item.purchaseLimit)))
    return refuse(
      purchaseLimitReached({ purchaseLimit: item.purchaseLimit ?? 0, occurrenceNumber: occurrence }),
    );
  if (!(await takeUnit(client, environment.environmentId, ref, item.stock)))
    return refuse(marketplaceItemOutOfStock({ stock: item.stock ?? 0, occurrenceNumber: occurrence }));
  await client.query('RELEASE SAVEPOINT purchase_effects');

  const purchaseId = randomUUID();
  let entryId: string | null = null;
  if (price > 0) {
    const entry = await appendJournalEntry(client, {
      entryId: randomUUID(),
      organizationId: environment.organizationId,
      ...player,
      kind: 'purchase',
      amount: -price,
      balanceAfter,
      reason: `marketplace item ${item.key}`,
      idempotencyKey: request.idempotencyKey ?? null,
      sourceRef: purchaseId,
    });
    await enqueueOutbox(client, topics.pointsJournal, deps.topicPrefix, [journalRecord(entry)]);
    entryId = entry.entryId;
  }
  const purchasedAt = await recordPurchase(client, {
    purchaseId,
    ...player,
    itemKey: item.key,
    occurrence,
    price,
    contents: item.contents,
    entryId,
    balanceAfter,
    idempotencyKey: request.idempotencyKey ?? null,
  });
  await recordPlayerItems(client, {
    ...player,
    source: 'purchase',
    sourceRef: purchaseId,
    entryId,
    items: item.contents,
  });
  return {
    status: 200,
    body: {
      purchaseId,
      transactionId: entryId,
      playerId: player.playerId,
      marketplaceItemKey: item.key,
      occurrenceNumber: occurrence,
      priceInPoints: price,
      contents: item.contents,
      balance: balanceAfter,
      purchasedAtUtc: purchasedAt.toISOString(),
    },
  };
}
