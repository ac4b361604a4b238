import { PointsAdjustmentResultSchema } from '@engage/contracts';
import { expect } from 'vitest';

/** Every answer an adjustment may get once the request itself is valid. */
export const ADJUSTMENT_REFUSALS = [
  'points.insufficient_balance',
  'points.concurrent_update',
  'points_adjustment.idempotency_key_conflict',
];

export function expectSpecAnswer(
  answer: { status: number; body: Record<string, unknown> },
  request: { amount: number; idempotencyKey?: string | undefined },
): void {
  if (answer.status === 200) {
    const result = PointsAdjustmentResultSchema.parse(answer.body);
    expect(result.amount).toBe(request.amount);
    expect(result.balance).toBeGreaterThanOrEqual(0);
    return;
  }
  expect(answer.status).toBe(409);
  expect(ADJUSTMENT_REFUSALS).toContain(answer.body.code);
  if (answer.body.code === 'points_adjustment.idempotency_key_conflict') {
    expect(request.idempotencyKey).toBeDefined();
  }
}
