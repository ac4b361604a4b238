import type { LeaderboardResult, PointsJournalEntry, RulesProgress, ShopPurchase } from '@engage/contracts';
import { WEBHOOK_PAYLOAD_DATA, webhookPayloadSchema } from '@engage/contracts/http/webhooks.ts';
import { describe, expect, it } from 'vitest';
import { REFUSED_ADDRESS_TEXT } from '../../src/webhooks/domain/address.ts';
import {
  changesOfJournal,
  changesOfProgress,
  changesOfPurchase,
  changesOfSettlement,
  dataFor,
  type SubscribingEndpoint,
} from '../../src/webhooks/domain/changes.ts';
import { afterFailure, attemptsAllowed, parseRetryDelays } from '../../src/webhooks/domain/retry.ts';
import { secretsInUse } from '../../src/webhooks/domain/signature.ts';
import { webhookUrlRefusal } from '../../src/webhooks/domain/url.ts';

const environmentId = crypto.randomUUID();
const at = '2026-03-01T10:00:00.000Z';

const progress = (kind: RulesProgress['kind'], extra: Partial<RulesProgress> = {}): RulesProgress => ({
  recordId: crypto.randomUUID(),
  organizationId: crypto.randomUUID(),
  environmentId,
  playerId: 'p1',
  kind,
  subjectKey: 'daily',
  occurrenceNumber: 2,
  objectiveKey: null,
  value: null,
  milestoneThreshold: null,
  localDate: null,
  causeEventId: null,
  occurredAt: at,
  endedAt: null,
  ...extra,
});

const journal = (kind: PointsJournalEntry['kind'], amount: number): PointsJournalEntry => ({
  entryId: crypto.randomUUID(),
  organizationId: crypto.randomUUID(),
  environmentId,
  playerId: 'p1',
  kind,
  amount,
  balanceAfter: 40,
  reason: kind === 'adjustment' ? 'goodwill' : null,
  idempotencyKey: null,
  sourceRef: null,
  occurredAt: at,
  marketplaceItemKey: kind === 'purchase' ? 'sword' : null,
});

const shopPurchase = (price: number, entryId: string | null): ShopPurchase => ({
  purchaseId: crypto.randomUUID(),
  organizationId: crypto.randomUUID(),
  environmentId,
  playerId: 'p1',
  marketplaceItemKey: 'sword',
  occurrenceNumber: 1,
  priceInPoints: price,
  entryId,
  balanceAfter: 40,
  idempotencyKey: null,
  contents: [{ catalogItemKey: 'gem', value: 3 }],
  purchasedAt: at,
});

const settled = (rank: number, rowKind: LeaderboardResult['rowKind'] = 'Player'): LeaderboardResult => ({
  resultId: crypto.randomUUID(),
  organizationId: crypto.randomUUID(),
  environmentId,
  leaderboardKey: 'weekly',
  periodStartsAt: '2026-02-23T00:00:00.000Z',
  periodEndsAt: '2026-03-02T00:00:00.000Z',
  rowKind,
  rowKey: 'p1',
  rank,
  score: '120.5',
  tierKey: 'gold',
  groupNumber: 3,
  movement: 'Promoted',
  nextTierKey: 'diamond',
  settledAt: at,
});

const endpoint = (eventTypes: string[], rankThreshold = 10): SubscribingEndpoint => ({
  webhookId: crypto.randomUUID(),
  eventTypes,
  rankThreshold,
  createdAt: new Date('2026-01-01T00:00:00Z'),
});

/** Each change's body as it is sent, checked against the schema the OpenAPI document publishes. */
function expectPublishedShape(change: { eventType: keyof typeof WEBHOOK_PAYLOAD_DATA; data: unknown }) {
  const body = {
    id: crypto.randomUUID(),
    type: change.eventType,
    timestamp: at,
    environmentId,
    data: change.data,
  };
  expect(webhookPayloadSchema(change.eventType).strict().parse(body)).toEqual(body);
  expect(WEBHOOK_PAYLOAD_DATA[change.eventType].strict().parse(change.data)).toEqual(change.data);
}

describe('webhook changes', () => {
  it('reports completed missions, reached milestones and broken streaks, not other steps', () => {
    const [completed] = changesOfProgress(progress('MissionCompleted', { subjectKey: 'first_win' }));
    expect(completed).toMatchObject({
      eventType: 'mission.completed',
      playerId: 'p1',
      data: { playerId: 'p1', missionKey: 'first_win', occurrenceNumber: 2, completedAt: at },
    });
    const [milestone] = changesOfProgress(progress('StreakMilestoneReached', { milestoneThreshold: 7 }));
    expect(milestone).toMatchObject({
      eventType: 'milestone.reached',
      data: { streakKey: 'daily', runNumber: 2, milestoneThreshold: 7, reachedAt: at },
    });
    const endedAt = '2026-03-01T00:00:00.000Z';
    const [broken] = changesOfProgress(
      progress('StreakBroken', { value: 12, localDate: '2026-02-27', endedAt }),
    );
    expect(broken).toMatchObject({
      eventType: 'streak.broken',
      occurredAt: endedAt,
      data: { finalCount: 12, lastCountedLocalDate: '2026-02-27', brokenAt: endedAt },
    });
    for (const change of [completed!, milestone!, broken!]) expectPublishedShape(change);
    for (const kind of [
      'MissionEntered',
      'MissionAccepted',
      'ObjectiveSatisfied',
      'StreakExtended',
    ] as const) {
      expect(changesOfProgress(progress(kind))).toEqual([]);
    }
  });

  it('reports adjustments from the journal, not purchase charges or reward credits', () => {
    const [adjusted] = changesOfJournal(journal('adjustment', -5));
    expect(adjusted).toMatchObject({
      eventType: 'points.adjusted',
      data: { amount: -5, balanceAfter: 40, reason: 'goodwill' },
    });
    expectPublishedShape(adjusted!);
    expect(changesOfJournal(journal('purchase', -30))).toEqual([]);
    expect(changesOfJournal(journal('reward', 10))).toEqual([]);
  });

  it('reports every purchase, a free one with no transaction', () => {
    for (const [price, entryId] of [
      [30, crypto.randomUUID()],
      [0, null],
    ] as const) {
      const [made] = changesOfPurchase(shopPurchase(price, entryId));
      expect(made).toMatchObject({
        eventType: 'purchase.made',
        data: {
          itemKey: 'sword',
          pointsSpent: price,
          transactionId: entryId,
          contents: [{ catalogItemKey: 'gem', value: 3 }],
        },
      });
      expectPublishedShape(made!);
    }
  });

  it("reports a player's settled standing with its league move, and the rank to endpoints it is within", () => {
    const [standing, rank] = changesOfSettlement(settled(3));
    expect(standing).toMatchObject({
      eventType: 'leaderboard.period_settled',
      data: { finalRank: 3, leagueMove: 'Promoted', tierKey: 'gold', nextTierKey: 'diamond', score: '120.5' },
    });
    expectPublishedShape(standing!);
    const madeAt = new Date(at);
    const top3 = dataFor(rank!, endpoint(['leaderboard.rank_reached'], 3), madeAt);
    expect(top3).toMatchObject({ rank: 3, rankThreshold: 3 });
    expectPublishedShape({ eventType: 'leaderboard.rank_reached', data: top3 });
    expect(dataFor(rank!, endpoint(['leaderboard.rank_reached'], 2), madeAt)).toBeUndefined();
    expect(dataFor(rank!, endpoint(['leaderboard.period_settled'], 10), madeAt)).toBeUndefined();
    expect(changesOfSettlement(settled(1, 'Team'))).toEqual([]);
    expect(new Set([standing!.sourceId, rank!.sourceId]).size).toBe(2);
  });

  it('sends a change only to endpoints that subscribe to it and existed when it was written', () => {
    const [change] = changesOfJournal(journal('adjustment', 1));
    const subscribed = endpoint(['points.adjusted']);
    expect(dataFor(change!, subscribed, new Date(at))).toEqual(change!.data);
    expect(dataFor(change!, endpoint(['purchase.made']), new Date(at))).toBeUndefined();
    expect(dataFor(change!, subscribed, new Date('2025-12-31T23:59:59Z'))).toBeUndefined();
  });
});

describe('retry schedule', () => {
  const schedule = { delaysMs: parseRetryDelays('5000, 300000,1800000') };

  it('waits each delay give or take a fifth, then is exhausted', () => {
    const now = new Date(at);
    const wait = (attempts: number, random: number) => {
      const decision = afterFailure(schedule, attempts, now, () => random);
      return decision.kind === 'retry' ? decision.at.getTime() - now.getTime() : decision.kind;
    };
    expect(wait(1, 0.5)).toBe(5000);
    expect(wait(1, 0)).toBe(4000);
    expect(wait(1, 0.999999)).toBeCloseTo(6000, -1);
    expect(wait(3, 0.5)).toBe(1_800_000);
    expect(wait(4, 0.5)).toBe('exhausted');
    expect(attemptsAllowed(schedule)).toBe(4);
  });

  it('refuses a schedule that is not a list of whole milliseconds', () => {
    for (const text of ['', '5s', '100,,200', '-1', '1.5']) expect(() => parseRetryDelays(text)).toThrow();
  });
});

describe('webhook URLs and secrets', () => {
  it('allows https; http only to loopback and only when insecure URLs are allowed', () => {
    const insecure = { allowInsecure: true, allowPrivateAddresses: true };
    const strict = { allowInsecure: false, allowPrivateAddresses: false };
    expect(webhookUrlRefusal('http://127.0.0.1:8080/x', insecure)).toBeUndefined();
    expect(webhookUrlRefusal('http://localhost/x', insecure)).toBeUndefined();
    expect(webhookUrlRefusal('http://[::1]:9000/x', insecure)).toBeUndefined();
    expect(webhookUrlRefusal('http://127.0.0.1:8080/x', strict)).toMatch(/https/);
    expect(webhookUrlRefusal('http://hooks.example.com/x', insecure)).toMatch(/loopback/);
    expect(webhookUrlRefusal('http://127.0.0.1.example.com/x', insecure)).toMatch(/loopback/);
    expect(webhookUrlRefusal('https://u:p@hooks.example.com/x', strict)).toMatch(/credentials/);
    expect(webhookUrlRefusal('https://hooks.example.com/x', strict)).toBeUndefined();
    expect(webhookUrlRefusal('https://10.0.0.1/x', strict)).toBe(REFUSED_ADDRESS_TEXT);
    expect(webhookUrlRefusal('https://[::ffff:127.0.0.1]/x', strict)).toBe(REFUSED_ADDRESS_TEXT);
    expect(
      webhookUrlRefusal('https://10.0.0.1/x', { allowInsecure: false, allowPrivateAddresses: true }),
    ).toBeUndefined();
  });

  it('signs with the previous secret too only until its overlap ends', () => {
    const now = new Date(at);
    const endpointSecrets = (expiresInMs: number | null) => ({
      secret: 'new',
      previousSecret: expiresInMs === null ? null : 'old',
      previousSecretExpiresAt: expiresInMs === null ? null : new Date(now.getTime() + expiresInMs),
    });
    expect(secretsInUse(endpointSecrets(1000), now)).toEqual(['new', 'old']);
    expect(secretsInUse(endpointSecrets(0), now)).toEqual(['new']);
    expect(secretsInUse(endpointSecrets(null), now)).toEqual(['new']);
  });
});
