import type { GrantedReward, RewardGrant } from '@engage/contracts';
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
