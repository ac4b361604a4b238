import { createHash } from 'node:crypto';
import type { ProblemCode } from '@engage/contracts';

/** Adjustments and purchases share one set of idempotency keys per player. */
export type KeyOperation = 'adjustment' | 'purchase';

/** What a request binds its key to: the operation and its target (an amount, or a listing key). */
export interface KeyClaim {
  operation: KeyOperation;
  target: string;
  requestHash: string;
}

/** The outcome stored under a key and returned, unchanged, to every retry with it. */
export interface StoredResponse {
  status: number;
  body: unknown;
}

export interface StoredKey {
  operation: KeyOperation;
  target: string;
  requestHash: string;
  response: StoredResponse;
}

/**
 * Hash of what identifies a keyed request's effect. The reason text is deliberately left out: the
 * contract refuses a key reused for a different amount, so a retry whose reason was reworded replays.
 */
export function requestHash(operation: KeyOperation, target: string): string {
  return createHash('sha256')
    .update(JSON.stringify([operation, target]))
    .digest('hex');
}

export function adjustmentClaim(amount: number): KeyClaim {
  const target = String(amount);
  return { operation: 'adjustment', target, requestHash: requestHash('adjustment', target) };
}

export function purchaseClaim(marketplaceItemKey: string): KeyClaim {
  return {
    operation: 'purchase',
    target: marketplaceItemKey,
    requestHash: requestHash('purchase', marketplaceItemKey),
  };
}

/** A retry replays the stored outcome; a key bound to another operation or target is a conflict. */
export function judgeRetry(stored: Pick<StoredKey, 'requestHash'>, claim: KeyClaim): 'replay' | 'conflict' {
  return stored.requestHash === claim.requestHash ? 'replay' : 'conflict';
}

/** The conflict code is the one of the operation being attempted. */
export function conflictCode(operation: KeyOperation): ProblemCode {
  return operation === 'adjustment'
    ? 'points_adjustment.idempotency_key_conflict'
    : 'marketplace_purchase.idempotency_key_conflict';
}
