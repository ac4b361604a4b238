import { readFileSync } from 'node:fs';
import avro from 'avsc';
import { describe, expect, it } from 'vitest';
import { logicalTypes, type PointsJournalEntry, type RulesProgress, topics } from '../src/topics/index.ts';

/**
 * Schemas that grew within v1 stay backward compatible: the current schema reads records written
 * with each published version (new fields take their defaults), and a reader still on a published
 * version reads the current records it knows how to (new fields are skipped).
 */
const published = (topic: string, version: number) =>
  avro.Type.forSchema(
    JSON.parse(readFileSync(new URL(`./fixtures/${topic}/${version}.avsc`, import.meta.url), 'utf8')),
    { logicalTypes },
  );

const purchase: PointsJournalEntry = {
  entryId: '5b0d3c61-8a8e-4c43-9f1e-0c2b7d9e4a10',
  organizationId: '0b9b4d7e-3f1c-4a6e-9a51-36f1b8d2c001',
  environmentId: '6f1c8a0e-2d4b-4b7a-8f3e-5a9c1d2e3f40',
  playerId: 'player-1',
  kind: 'purchase',
  amount: -10,
  balanceAfter: 90,
  reason: 'marketplace item sword',
  idempotencyKey: 'k-1',
  sourceRef: '9a1f2e3d-4c5b-4a69-8877-665544332211',
  occurredAt: '2026-11-21T10:00:00.000Z',
  marketplaceItemKey: 'sword',
};

const extended: RulesProgress = {
  recordId: '1f2e3d4c-5b6a-4798-8a7b-6c5d4e3f2a1b',
  organizationId: purchase.organizationId,
  environmentId: purchase.environmentId,
  playerId: 'player-1',
  kind: 'StreakExtended',
  subjectKey: 'daily-play',
  occurrenceNumber: 2,
  objectiveKey: null,
  value: 1,
  milestoneThreshold: null,
  localDate: '2026-11-21',
  causeEventId: '8c6f0a52-34a7-4cb8-9b1c-0d0f1b0b8d11',
  occurredAt: '2026-11-21T10:00:01.000Z',
  endedAt: null,
};

describe('points.journal.v1: marketplaceItemKey', () => {
  const v1 = published('points.journal.v1', 1);

  it('reads a record written before the field with marketplaceItemKey null', () => {
    const { marketplaceItemKey: _, ...old } = purchase;
    const read = topics.pointsJournal.type.fromBuffer(
      v1.toBuffer(old),
      topics.pointsJournal.type.createResolver(v1),
    );
    expect(read).toEqual({ ...purchase, marketplaceItemKey: null });
  });

  it('is read by a reader on the published version, which skips the field', () => {
    const read = v1.fromBuffer(
      topics.pointsJournal.type.toBuffer(purchase),
      v1.createResolver(topics.pointsJournal.type),
    );
    expect(read).toEqual({ ...purchase, marketplaceItemKey: undefined });
  });
});

describe('rules.progress.v1: StreakBroken and endedAt', () => {
  const v1 = published('rules.progress.v1', 1);

  it('reads a record written before them with endedAt null', () => {
    const { endedAt: _, ...old } = extended;
    const read = topics.rulesProgress.type.fromBuffer(
      v1.toBuffer(old),
      topics.rulesProgress.type.createResolver(v1),
    );
    expect(read).toEqual(extended);
  });

  it('writes the new kind with the end of the run', () => {
    const broken: RulesProgress = {
      ...extended,
      kind: 'StreakBroken',
      occurrenceNumber: 1,
      value: 5,
      localDate: '2026-11-18',
      endedAt: '2026-11-20T00:00:00.000Z',
    };
    expect(topics.rulesProgress.type.fromBuffer(topics.rulesProgress.type.toBuffer(broken))).toEqual(broken);
  });
});
