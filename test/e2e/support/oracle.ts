import { isDeepStrictEqual } from 'node:util';
import {
  type PointsJournalEntry,
  type RewardGrant,
  type RulesProgress,
  type TopicDefinition,
  topicName,
  topics,
} from '@engage/contracts';
import { consumerGroupId, createKafka } from '@engage/kafka';
import { createLogger } from '@engage/kit';
import type { Pool } from '@engage/postgres';
import { eventually, readTopicRecords, schemaPool } from '@engage/testkit';
import { expect } from 'vitest';
import { BOARD, ITEM, PLAY, REWARD_MISSIONS, TALLY_MISSIONS } from './keyed-load.ts';
import type { Answer, OperationRecord, RecordedClient } from './recorded-client.ts';

/**
 * The oracle of a fault run (docs: the invariants of reliability notes): after the load stopped and
 * the stack settled, every definitive answer the clients received is checked against what each
 * service stored and published, and the stored state against a simple model fed the accepted
 * operations once.
 */

export interface Run {
  client: RecordedClient;
  gatewayUrl: () => string;
  apiKey: string;
  environmentId: string;
  players: readonly string[];
  stock: number;
  topicPrefix: string;
  /** The broker the stack's topics are on (to read them back). */
  brokers: string[];
  /** The stack's database (the suite's by default). */
  databaseUrl?: string;
}

interface EventItem {
  playerId: string;
  properties: { value: number };
  idempotencyKey: string;
}

/** What the accepted operations add up to, per player. */
interface Model {
  events: Map<string, { count: number; sum: number }>;
  /** eventId answered for each accepted event's key. */
  eventIds: Map<string, string>;
  points: Map<string, number>;
  adjustments: number;
  purchases: number;
  refusals: Map<string, number>;
}

const EXPECTED_REFUSALS = new Set(['points.insufficient_balance', 'marketplace_item.out_of_stock']);

const code = (answer: Answer) => (answer.body as { code?: string } | null)?.code;

export function rewardPoints(count: number): number {
  return REWARD_MISSIONS.filter((m) => count >= m.target).reduce((sum, m) => sum + m.points, 0);
}

function model(run: Run): Model {
  const m: Model = {
    events: new Map(run.players.map((p) => [p, { count: 0, sum: 0 }])),
    eventIds: new Map(),
    points: new Map(run.players.map((p) => [p, 0])),
    adjustments: 0,
    purchases: 0,
    refusals: new Map(),
  };
  for (const r of run.client.records) {
    if (r.final.outcome === 'fail') {
      const c = code(r.final) ?? String(r.final.status);
      m.refusals.set(c, (m.refusals.get(c) ?? 0) + 1);
    }
    if (r.final.outcome !== 'ok') continue;
    if (r.kind === 'events') {
      const items = (r.body as { events: EventItem[] }).events;
      const results = (r.final.body as { results: { accepted: boolean; eventId: string }[] }).results;
      items.forEach((item, i) => {
        expect(results[i]?.accepted, `event ${item.idempotencyKey} accepted`).toBe(true);
        const tally = m.events.get(item.playerId)!;
        tally.count++;
        tally.sum += item.properties.value;
        m.eventIds.set(item.idempotencyKey, results[i]!.eventId);
      });
    } else if (r.kind === 'adjustment') {
      const { amount } = r.body as { amount: number };
      m.points.set(r.playerId, m.points.get(r.playerId)! + amount);
      m.adjustments++;
    } else if (r.kind === 'purchase') {
      m.points.set(r.playerId, m.points.get(r.playerId)! - ITEM.price);
      m.purchases++;
    }
  }
  for (const [player, tally] of m.events)
    m.points.set(player, m.points.get(player)! + rewardPoints(tally.count));
  return m;
}

/** The summed end offsets of a topic's partitions. */
async function topicEnd(brokers: string[], topic: string): Promise<number> {
  const admin = createKafka({
    brokers,
    clientId: 'fault-oracle',
    log: createLogger('oracle', 'error'),
  }).admin();
  await admin.connect();
  try {
    return (await admin.fetchTopicOffsets(topic)).reduce((sum, p) => sum + Number(p.high), 0);
  } finally {
    await admin.disconnect();
  }
}

async function storedOffsets(pool: Pool, service: string, prefix: string, topic: TopicDefinition<unknown>) {
  const { rows } = await pool.query<{ n: string | null }>(
    'SELECT sum(next_offset)::text AS n FROM kafka_offsets WHERE group_id = $1 AND topic = $2',
    [consumerGroupId(service, prefix), topicName(topic, prefix)],
  );
  return Number(rows[0]?.n ?? 0);
}

async function outboxRows(pool: Pool, prefix: string): Promise<number> {
  const { rows } = await pool.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM outbox WHERE starts_with(topic, $1)',
    [prefix],
  );
  return rows[0]!.n;
}

const SETTLE = { timeoutMs: 120_000, intervalMs: 250 };

/**
 * Waits until every accepted event was applied by rules and query, every outbox row of this stack
 * was published and every reward grant on the topic was applied by the ledger.
 */
export async function waitForQuiescence(run: Run, pools: Record<'rules' | 'query' | 'ledger', Pool>) {
  const { topicPrefix: prefix, brokers } = run;
  const events = topics.eventsAccepted as TopicDefinition<unknown>;
  const eventsEnd = await topicEnd(brokers, topicName(events, prefix));
  for (const service of ['rules', 'query'] as const) {
    await eventually(
      `${service} to apply all ${eventsEnd} records of the events topic`,
      async () =>
        (await storedOffsets(pools[service], service, prefix, events)) >= eventsEnd ? true : undefined,
      SETTLE,
    );
  }
  await eventually(
    'the rules outbox to be published',
    async () => ((await outboxRows(pools.rules, prefix)) === 0 ? true : undefined),
    SETTLE,
  );
  const grants = topics.rewardsGranted as TopicDefinition<unknown>;
  const grantsEnd = await topicEnd(brokers, topicName(grants, prefix));
  await eventually(
    `the ledger to apply all ${grantsEnd} reward grants`,
    async () =>
      (await storedOffsets(pools.ledger, 'ledger', prefix, grants)) >= grantsEnd ? true : undefined,
    SETTLE,
  );
  await eventually(
    'the ledger outbox to be published',
    async () => ((await outboxRows(pools.ledger, prefix)) === 0 ? true : undefined),
    SETTLE,
  );
}

/** Figures of the run, for its report line. */
export interface OracleReport {
  operations: ReturnType<RecordedClient['tally']>;
  events: number;
  adjustments: number;
  purchases: number;
  refusals: Record<string, number>;
  journalEntries: number;
  journalRecordCopies: number;
  rewardGrants: number;
  grantRecordCopies: number;
  progressRecordCopies: number;
}

export async function checkOracle(run: Run): Promise<OracleReport> {
  const pool = (schema: 'rules' | 'query' | 'ledger') => schemaPool(schema, run.databaseUrl);
  const pools = { rules: pool('rules'), query: pool('query'), ledger: pool('ledger') };
  try {
    // Every operation ended with a definitive answer, and every refusal is one the load can cause.
    const undecided = run.client.records.filter((r) => r.final.outcome === 'unknown');
    expect(undecided.map((r) => `${r.kind} ${JSON.stringify(r.body)}: ${JSON.stringify(r.final)}`)).toEqual(
      [],
    );
    const m = model(run);
    expect([...m.refusals.keys()].filter((c) => !EXPECTED_REFUSALS.has(c))).toEqual([]);

    await waitForQuiescence(run, pools);
    await checkReplays(run);
    const ledger = await checkLedger(run, m, pools.ledger);
    await checkMissions(run, m);
    await checkBoard(run, m, pools.query);
    const published = await checkTopics(run, m, pools.ledger);
    return {
      operations: run.client.tally(),
      events: m.eventIds.size,
      adjustments: m.adjustments,
      purchases: m.purchases,
      refusals: Object.fromEntries(m.refusals),
      ...ledger,
      ...published,
    };
  } finally {
    await Promise.all(Object.values(pools).map((p) => p.end()));
  }
}

/** Keyed operations sent again after the run (besides every one that was retried during it). */
const REPLAY_SAMPLE = 150;

/**
 * Every retry of a completed key returns the same answer: each operation retried during the run,
 * and an even sample of the others, is sent once more.
 */
async function checkReplays(run: Run) {
  const completed = run.client.records.filter((r) => r.kind !== 'missions' && r.final.outcome !== 'unknown');
  const step = Math.max(1, Math.ceil(completed.length / REPLAY_SAMPLE));
  const keyed = completed.filter((r, i) => r.attempts.length > 1 || i % step === 0);
  const mismatches: string[] = [];
  for (let i = 0; i < keyed.length; i += 8) {
    await Promise.all(
      keyed.slice(i, i + 8).map(async (r) => {
        let again = await run.client.attempt(r);
        for (let tries = 0; again.outcome === 'unknown' && tries < 20; tries++) {
          await new Promise((resolve) => setTimeout(resolve, 250));
          again = await run.client.attempt(r);
        }
        const same =
          r.kind === 'events' ? eventIdsOf(again) === eventIdsOf(r.final) : sameAnswer(again, r.final);
        if (!same)
          mismatches.push(
            `${r.kind} ${JSON.stringify(r.body)}: ${JSON.stringify(r.final)} then ${JSON.stringify(again)}`,
          );
      }),
    );
  }
  expect(mismatches).toEqual([]);
}

const eventIdsOf = (a: Answer) =>
  a.status === 200
    ? JSON.stringify((a.body as { results: { eventId: string }[] }).results.map((r) => r.eventId))
    : `status ${a.status}`;

/** The same status and the same JSON value (a replay's members may come in another order). */
const sameAnswer = (a: Answer, b: Answer) => a.status === b.status && isDeepStrictEqual(a.body, b.body);

/** Balances, the journal, idempotency keys, reward grants and the item's stock, in the ledger's tables. */
async function checkLedger(run: Run, m: Model, pool: Pool) {
  const env = run.environmentId;
  const { rows: balances } = await pool.query<{ player_id: string; balance: string }>(
    'SELECT player_id, balance::text FROM balances WHERE environment_id = $1',
    [env],
  );
  const { rows: journal } = await pool.query<{
    player_id: string;
    kind: string;
    amount: string;
    balance_after: string;
    idempotency_key: string | null;
  }>(
    `SELECT player_id, kind, amount::text, balance_after::text, idempotency_key
     FROM journal WHERE environment_id = $1 ORDER BY seq`,
    [env],
  );
  const stored = new Map(balances.map((b) => [b.player_id, Number(b.balance)]));
  const journalSum = new Map<string, number>();
  const chainBreaks: string[] = [];
  const rewardSums = new Map<string, number>();
  for (const e of journal) {
    const before = journalSum.get(e.player_id) ?? 0;
    const after = before + Number(e.amount);
    // The journal is one chain per player and no balance was ever below zero.
    if (after !== Number(e.balance_after) || after < 0)
      chainBreaks.push(`${e.player_id}: ${before} + ${e.amount} -> ${e.balance_after}`);
    journalSum.set(e.player_id, after);
    if (e.kind === 'reward')
      rewardSums.set(e.player_id, (rewardSums.get(e.player_id) ?? 0) + Number(e.amount));
  }
  expect(chainBreaks).toEqual([]);
  for (const player of run.players) {
    const expected = m.points.get(player)!;
    const tally = m.events.get(player)!;
    expect({
      player,
      balance: stored.get(player) ?? 0,
      journal: journalSum.get(player) ?? 0,
      rewards: rewardSums.get(player) ?? 0,
    }).toEqual({ player, balance: expected, journal: expected, rewards: rewardPoints(tally.count) });
  }
  // At most one effect per idempotency key.
  const keys = journal
    .filter((e) => e.idempotency_key !== null)
    .map((e) => `${e.player_id}/${e.idempotency_key}`);
  expect(keys.length - new Set(keys).size, 'journal entries sharing a key').toBe(0);
  expect(journal.filter((e) => e.kind === 'adjustment')).toHaveLength(m.adjustments);
  expect(journal.filter((e) => e.kind === 'purchase')).toHaveLength(m.purchases);

  // Each reward mission a player completed was credited once.
  const { rows: grants } = await pool.query<{ player_id: string; source_key: string; outcome: string }>(
    'SELECT player_id, source_key, outcome FROM reward_grants WHERE environment_id = $1 ORDER BY player_id, source_key',
    [env],
  );
  const expectedGrants = run.players
    .flatMap((p) =>
      REWARD_MISSIONS.filter((r) => m.events.get(p)!.count >= r.target).map((r) => `${p} ${r.key} credited`),
    )
    .sort();
  expect(grants.map((g) => `${g.player_id} ${g.source_key} ${g.outcome}`).sort()).toEqual(expectedGrants);

  // The stock was never oversold: units sold are the purchases answered, at most the stock, and a
  // refusal for want of stock means it ran out.
  const { rows: sales } = await pool.query<{ sold: number }>(
    'SELECT coalesce(sum(sold), 0)::int AS sold FROM item_sales WHERE environment_id = $1 AND item_key = $2',
    [env, ITEM.key],
  );
  const { rows: purchases } = await pool.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM purchases WHERE environment_id = $1',
    [env],
  );
  expect([sales[0]!.sold, purchases[0]!.n]).toEqual([m.purchases, m.purchases]);
  expect(m.purchases).toBeLessThanOrEqual(run.stock);
  if (m.refusals.has('marketplace_item.out_of_stock')) expect(m.purchases).toBe(run.stock);

  // The API answers the same balances.
  for (const player of run.players) {
    const answer = await run.client.attempt({
      kind: 'missions',
      playerId: player,
      method: 'GET',
      path: `/v1/points?PlayerId=${encodeURIComponent(player)}`,
    });
    expect([player, (answer.body as { balance?: number }).balance]).toEqual([player, m.points.get(player)]);
  }
  return { journalEntries: journal.length, rewardGrants: grants.length };
}

/** Each player's mission progress equals the model: counts, sums and completions. */
async function checkMissions(run: Run, m: Model) {
  for (const player of run.players) {
    const answer = await run.client.attempt({
      kind: 'missions',
      playerId: player,
      method: 'POST',
      path: '/v1/missions',
      body: { playerId: player },
    });
    expect(answer.status).toBe(200);
    const missions = answer.body as {
      missionKey: string;
      status: string;
      objectives: { progress: { actual: number } }[];
    }[];
    const byKey = new Map(missions.map((x) => [x.missionKey, x]));
    const tally = m.events.get(player)!;
    const progress = (key: string) => byKey.get(key)?.objectives[0]?.progress.actual;
    expect({
      player,
      count: progress(TALLY_MISSIONS.count),
      sum: progress(TALLY_MISSIONS.sum),
      completed: REWARD_MISSIONS.filter((r) => byKey.get(r.key)?.status === 'Completed').map((r) => r.key),
    }).toEqual({
      player,
      count: tally.count,
      sum: tally.sum,
      completed: REWARD_MISSIONS.filter((r) => tally.count >= r.target).map((r) => r.key),
    });
  }
}

/** The board's durable scores equal the model, and the live board (Redis) converges on them. */
async function checkBoard(run: Run, m: Model, pool: Pool) {
  const { rows } = await pool.query<{ player_id: string; score: string }>(
    'SELECT player_id, score::text FROM board_scores WHERE environment_id = $1 AND board_key = $2',
    [run.environmentId, BOARD],
  );
  const expected = run.players
    .filter((p) => m.events.get(p)!.count > 0)
    .map((p) => `${p}=${m.events.get(p)!.sum}`)
    .sort();
  expect(rows.map((r) => `${r.player_id}=${Number(r.score)}`).sort()).toEqual(expected);
  const live = async () => {
    const scores: string[] = [];
    for (const player of run.players) {
      const answer = await run.client.attempt({
        kind: 'missions',
        playerId: player,
        method: 'GET',
        path: `/v1/leaderboards/${BOARD}?PlayerId=${encodeURIComponent(player)}`,
      });
      const me = (answer.body as { leaderboard?: { me: { score: number } | null } }).leaderboard?.me;
      if (me) scores.push(`${player}=${me.score}`);
    }
    return scores.sort();
  };
  let last: string[] = [];
  await eventually(
    'the live board to equal the durable scores',
    async () => {
      last = await live();
      return JSON.stringify(last) === JSON.stringify(expected) ? true : undefined;
    },
    { timeoutMs: 30_000, intervalMs: 500 },
  ).catch(() => undefined);
  expect(last).toEqual(expected);
}

/**
 * What reached the topics: every accepted event under the eventId answered for its key; every
 * journal entry and every reward grant the ledger stored, nothing else. A record published again
 * (a relay that died, or whose send failed, after the broker had taken it) is a copy of the same
 * record under the same id, which consumers dedupe: such copies are counted, not refused.
 */
async function checkTopics(run: Run, m: Model, ledger: Pool) {
  const read = <T>(def: TopicDefinition<T>) =>
    readTopicRecords(run.topicPrefix, def, { brokers: run.brokers });
  const mine = <T extends { environmentId: string }>(records: T[]) =>
    records.filter((r) => r.environmentId === run.environmentId);

  const events = mine(await read(topics.eventsAccepted)).filter((e) => e.eventKey === PLAY);
  const idsByKey = new Map<string, Set<string>>();
  for (const e of events) {
    const ids = idsByKey.get(e.idempotencyKey ?? '') ?? new Set();
    ids.add(e.eventId);
    idsByKey.set(e.idempotencyKey ?? '', ids);
  }
  // Keys of refused or abandoned batches never reached the topic (every batch was retried until accepted).
  expect([...idsByKey].map(([key, ids]) => `${key}=${[...ids].join(',')}`).sort()).toEqual(
    [...m.eventIds].map(([key, id]) => `${key}=${id}`).sort(),
  );

  const journal = mine(await read<PointsJournalEntry>(topics.pointsJournal));
  const { rows } = await ledger.query<{ entry_id: string }>(
    'SELECT entry_id FROM journal WHERE environment_id = $1',
    [run.environmentId],
  );
  expect(distinct(journal.map((e) => e.entryId))).toEqual(rows.map((r) => r.entry_id).sort());
  expectCopiesIdentical(journal, (e) => e.entryId);

  const grants = mine(await read<RewardGrant>(topics.rewardsGranted));
  const { rows: credited } = await ledger.query<{ grant_id: string }>(
    'SELECT grant_id FROM reward_grants WHERE environment_id = $1',
    [run.environmentId],
  );
  expect(distinct(grants.map((g) => g.grantId))).toEqual(credited.map((r) => r.grant_id).sort());
  expectCopiesIdentical(grants, (g) => g.grantId);

  // Rules' analyst records: every player entered every mission once, completions as the model says.
  const progress = mine(await read<RulesProgress>(topics.rulesProgress));
  const steps = (kind: RulesProgress['kind']) =>
    distinct(progress.filter((p) => p.kind === kind).map((p) => `${p.playerId} ${p.subjectKey}`));
  const missionKeys = [TALLY_MISSIONS.count, TALLY_MISSIONS.sum, ...REWARD_MISSIONS.map((r) => r.key)];
  expect(steps('MissionEntered')).toEqual(
    distinct(run.players.flatMap((p) => missionKeys.map((k) => `${p} ${k}`))),
  );
  expect(steps('MissionCompleted')).toEqual(
    distinct(
      run.players.flatMap((p) =>
        REWARD_MISSIONS.filter((r) => m.events.get(p)!.count >= r.target).map((r) => `${p} ${r.key}`),
      ),
    ),
  );
  expectCopiesIdentical(progress, (p) => p.recordId);
  return {
    progressRecordCopies: progress.length - new Set(progress.map((p) => p.recordId)).size,
    journalRecordCopies: journal.length - new Set(journal.map((e) => e.entryId)).size,
    grantRecordCopies: grants.length - new Set(grants.map((g) => g.grantId)).size,
  };
}

const distinct = (ids: string[]) => [...new Set(ids)].sort();

function expectCopiesIdentical<T>(records: T[], id: (r: T) => string) {
  const first = new Map<string, string>();
  for (const r of records) {
    const json = JSON.stringify(r);
    const seen = first.get(id(r));
    if (seen === undefined) first.set(id(r), json);
    else expect(json).toBe(seen);
  }
}

export type { OperationRecord };
