import type { PropertyValue } from '@engage/contracts';
import type { PropertyFilter } from '@engage/contracts/environment/missions.ts';

type Scalar = string | number | boolean;

/** The comparable value of an event property: numbers as numbers, date-times as ISO text. */
export function propertyScalar(value: PropertyValue | undefined): Scalar | undefined {
  if (!value) return undefined;
  switch (value.type) {
    case 'Number':
      return Number(value.number);
    case 'String':
      return value.string;
    case 'Boolean':
      return value.boolean;
    case 'DateTime':
      return value.dateTime;
  }
}

/** The numeric value of a property, undefined when absent or not a number. */
export function propertyNumber(value: PropertyValue | undefined): number | undefined {
  return value?.type === 'Number' ? Number(value.number) : undefined;
}

/** Whether every filter holds for the event's properties (no filters: every event). */
export function matchesFilters(
  filters: readonly PropertyFilter[],
  properties: Record<string, PropertyValue>,
): boolean {
  return filters.every((filter) => matches(filter, propertyScalar(properties[filter.property])));
}

function matches(filter: PropertyFilter, actual: Scalar | undefined): boolean {
  const expected = filter.value;
  switch (filter.op) {
    case 'eq':
      return actual !== undefined && actual === expected;
    case 'ne':
      return actual === undefined || actual !== expected;
    case 'in':
      return actual !== undefined && (expected as Scalar[]).includes(actual);
    case 'notIn':
      return actual === undefined || !(expected as Scalar[]).includes(actual);
    default: {
      if (actual === undefined || typeof actual !== typeof expected || typeof actual === 'boolean')
        return false;
      const a = actual as number | string;
      const b = expected as number | string;
      if (filter.op === 'gt') return a > b;
      if (filter.op === 'gte') return a >= b;
      if (filter.op === 'lt') return a < b;
      return a <= b;
    }
  }
}
