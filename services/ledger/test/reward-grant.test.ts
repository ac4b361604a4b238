import { describe, expect, it } from 'vitest';
import { grantDefect } from '../src/domain/reward-grant.ts';
import { rewardGrant } from './support/grants.ts';

const env = {
  organizationId: '6f1c7a52-3f57-4d4e-9a59-0c6d3b1f2a10',
  environmentId: '0b7e4c1d-8a2f-4b6e-9c3d-5e1f2a3b4c5d',
  environmentKind: 'Sandbox' as const,
};

describe('what makes a decoded reward grant unappliable', () => {
  it('accepts a grant as the rules service publishes it', () => {
    expect(grantDefect(rewardGrant(env, 'player-1', 10, [{ key: 'chest', value: 1 }]))).toBeUndefined();
  });

  it('names the defect: ids, player, amounts, item keys', () => {
    const good = rewardGrant(env, 'player-1', 10);
    expect(grantDefect({ ...good, grantId: 'x' })).toBe('grantId is not a UUID');
    expect(grantDefect({ ...good, environmentId: '' })).toBe('environmentId is not a UUID');
    expect(grantDefect({ ...good, playerId: '' })).toMatch(/playerId/);
    const points = (pointsAmount: number | null) => ({
      ...good,
      rewards: [{ kind: 'Points' as const, pointsAmount, catalogItemKey: null, catalogItemValue: null }],
    });
    expect(grantDefect(points(-5))).toMatch(/positive whole pointsAmount/);
    expect(grantDefect(points(null))).toMatch(/positive whole pointsAmount/);
    expect(grantDefect(points(1.5))).toMatch(/positive whole pointsAmount/);
    expect(
      grantDefect({
        ...good,
        rewards: [{ kind: 'CatalogItem', pointsAmount: null, catalogItemKey: null, catalogItemValue: 1 }],
      }),
    ).toMatch(/catalogItemKey/);
  });
});
