import type { GrantedReward } from '@engage/contracts';
import type { RewardDefinition } from '@engage/contracts/environment/missions.ts';

/** A reward as the API shows it and the rewards topic carries it. */
export function toReward(definition: RewardDefinition): GrantedReward {
  if ('points' in definition) {
    return { kind: 'Points', pointsAmount: definition.points, catalogItemKey: null, catalogItemValue: null };
  }
  return {
    kind: 'CatalogItem',
    pointsAmount: null,
    catalogItemKey: definition.catalogItem,
    catalogItemValue: definition.value,
  };
}
