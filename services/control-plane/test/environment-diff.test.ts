import { EnvironmentFileSchema } from '@engage/contracts/environment-file.ts';
import { describe, expect, it } from 'vitest';
import {
  type GatewaySectionsState,
  hasChanges,
  planGatewaySections,
} from '../src/domain/environment-diff.ts';

const file = (input: unknown) => EnvironmentFileSchema.parse(input);

const current: GatewaySectionsState = {
  discovery: false,
  events: [
    { key: 'a', active: true, properties: { x: { type: 'number', required: true } } },
    { key: 'b', active: true, properties: {} },
  ],
  playerAttributes: [{ key: 'tier', type: 'string', active: true }],
};

describe('environment file difference', () => {
  it('lists each item created, updated (with its fields), unchanged and removed', () => {
    const plan = planGatewaySections(
      current,
      file({
        discovery: true,
        events: [
          { key: 'a', properties: { x: { type: 'number', required: true }, y: { type: 'string' } } },
          { key: 'c', active: false },
        ],
      }),
    );
    expect(plan.changes).toEqual([
      { section: 'discovery', key: 'discovery', change: 'updated', fields: ['discovery'] },
      { section: 'events', key: 'a', change: 'updated', fields: ['properties.y'] },
      { section: 'events', key: 'c', change: 'created', fields: [] },
      { section: 'events', key: 'b', change: 'removed', fields: [] },
    ]);
    expect(plan.next.discovery).toBe(true);
    expect(plan.next.events.map((e) => e.key)).toEqual(['a', 'c']);
  });

  it('diffs player attribute definitions by type, active and description', () => {
    const plan = planGatewaySections(
      current,
      file({
        playerAttributes: [
          { key: 'tier', type: 'number' },
          { key: 'vip', type: 'boolean', active: false },
        ],
      }),
    );
    expect(plan.changes).toEqual([
      { section: 'playerAttributes', key: 'tier', change: 'updated', fields: ['type'] },
      { section: 'playerAttributes', key: 'vip', change: 'created', fields: [] },
    ]);
    expect(plan.next.events).toEqual(current.events);
    expect(
      EnvironmentFileSchema.safeParse({
        playerAttributes: [
          { key: 'a', type: 'string' },
          { key: 'a', type: 'number' },
        ],
      }).success,
    ).toBe(false);
  });

  it('is empty of changes when the file matches the state', () => {
    const plan = planGatewaySections(current, file({ discovery: false, events: current.events }));
    expect(hasChanges(plan.changes)).toBe(false);
    expect(plan.changes.map((c) => c.change)).toEqual(['unchanged', 'unchanged', 'unchanged']);
  });

  it('leaves absent sections as they are', () => {
    const plan = planGatewaySections(current, file({}));
    expect(plan.changes).toEqual([]);
    expect(plan.next).toEqual(current);
  });

  it('refuses unknown sections and duplicate events', () => {
    expect(EnvironmentFileSchema.safeParse({ missionz: [] }).success).toBe(false);
    expect(EnvironmentFileSchema.safeParse({ events: [{ key: 'a' }, { key: 'a' }] }).success).toBe(false);
  });
});
