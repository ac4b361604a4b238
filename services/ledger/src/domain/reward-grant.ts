import { type GrantedReward, PlayerIdSchema, type RewardGrant } from '@engage/contracts';
import type { ContentValue } from '@engage/contracts/environment/shop.ts';
import type { GrantedItem } from '../store/player-items.ts';

/** The points a grant credits: the sum of its Points rewards. */
export function grantPoints(grant: RewardGrant): number {
  return grant.rewards.reduce((sum, r) => sum + (r.kind === 'Points' ? (r.pointsAmount ?? 0) : 0), 0);
}

/** The catalog items a grant gives, with their values typed as shop contents are. */
export function grantItems(grant: RewardGrant): GrantedItem[] {
  return grant.rewards
    .filter(
      (r): r is GrantedReward & { catalogItemKey: string } => r.kind === 'CatalogItem' && !!r.catalogItemKey,
    )
    .map((r) => ({ catalogItemKey: r.catalogItemKey, value: typedValue(r.catalogItemValue) }));
}

function typedValue(value: GrantedReward['catalogItemValue']): ContentValue | null {
  if (value === null) return null;
  if (typeof value === 'number') return { type: 'number', value };
  if (typeof value === 'boolean') return { type: 'boolean', value };
  return { type: 'string', value };
}

/** The journal reason of a reward credit: what earned it. */
export function grantReason(grant: RewardGrant): string {
  const milestone = grant.milestoneThreshold === null ? '' : ` milestone ${grant.milestoneThreshold}`;
  return `${grant.source} ${grant.sourceKey} occurrence ${grant.occurrenceNumber}${milestone}`;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Why a decoded grant cannot be applied (ids that are not UUIDs, no player, an amount that is not a
 * positive whole number, no catalog item key), or undefined when it can. Such a grant goes to the
 * dead-letter table instead of blocking its partition.
 */
export function grantDefect(grant: RewardGrant): string | undefined {
  for (const field of ['grantId', 'organizationId', 'environmentId'] as const) {
    if (!UUID.test(grant[field])) return `${field} is not a UUID`;
  }
  if (!PlayerIdSchema.safeParse(grant.playerId).success) return 'playerId is not a valid player id';
  for (const reward of grant.rewards) {
    if (reward.kind === 'Points' && !(Number.isSafeInteger(reward.pointsAmount) && reward.pointsAmount! > 0))
      return 'a Points reward needs a positive whole pointsAmount';
    if (reward.kind === 'CatalogItem' && !reward.catalogItemKey)
      return 'a CatalogItem reward needs a catalogItemKey';
  }
  if (!Number.isSafeInteger(grantPoints(grant)))
    return 'the points of the grant add up past the largest balance';
  return undefined;
}
