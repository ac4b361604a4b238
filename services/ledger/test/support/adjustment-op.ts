import { randomUUID } from 'node:crypto';
import type { ProblemDocument } from '@engage/contracts';
import { adjustmentClaim } from '../../src/domain/idempotency.ts';
import type { AdjustmentOp } from '../../src/domain/write-decisions.ts';

/** A keyed adjustment as the write queue receives it (the organization is the environment's id). */
export const adjustmentOp = (
  environmentId: string,
  playerId: string,
  amount: number,
  idempotencyKey: string = randomUUID(),
): AdjustmentOp => ({
  kind: 'adjustment',
  organizationId: environmentId,
  environmentId,
  playerId,
  idempotencyKey,
  claim: adjustmentClaim(amount),
  entryId: randomUUID(),
  render: () => ({}) as ProblemDocument,
  amount,
  reason: null,
  createdAt: new Date(),
});
