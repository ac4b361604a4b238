// Proves kafkajs 2.2.4 against the pinned local broker (deploy/kafka): admin, idempotent produce,
// consumer groups with a rebalance, and transactions (commit + abort with read_committed).
import { randomBytes } from 'node:crypto';
import type { Admin, Consumer, EachBatchPayload, Kafka as KafkaClient, logCreator, Producer } from 'kafkajs';
import kafkajs from 'kafkajs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTopics, ensureKafka, type KafkaHandle } from '../src/kafka/index.ts';

const { Kafka, logLevel, Partitioners } = kafkajs;

const run = randomBytes(4).toString('hex');
const topicName = (name: string) => `devstack-test-${name}-${run}`;

// kafkajs logs every retriable broker answer (and the expected TOPIC_ALREADY_EXISTS) (rebalance in progress, coordinator loading,
// CONCURRENT_TRANSACTIONS right after a commit) at ERROR and retries it; keep only the rest.
const RETRIABLE =
  /Topic creation errors|rebalanc|coordinator|concurrent operation|Failed to send messages|re-joining/i;
const quietRetriableLogs: logCreator =
  () =>
  ({ namespace, level, log }) => {
    if (RETRIABLE.test(log.message) || (typeof log.error === 'string' && RETRIABLE.test(log.error))) return;
    const { message, ...extra } = log;
    console.warn(`[kafkajs ${namespace}] ${logLevel[level] ?? level} ${message}`, extra);
  };

let handle: KafkaHandle;
let kafka: KafkaClient;
let admin: Admin;
const toClose: { disconnect(): Promise<void> }[] = [];

async function waitFor(what: string, predicate: () => boolean | Promise<boolean>, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await predicate())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function producer(opts: Parameters<KafkaClient['producer']>[0] = {}): Producer {
  const p = kafka.producer({ createPartitioner: Partitioners.DefaultPartitioner, ...opts });
  toClose.push(p);
  return p;
}

function consumer(groupId: string, opts: Partial<Parameters<KafkaClient['consumer']>[0]> = {}): Consumer {
  const c = kafka.consumer({
    groupId,
    heartbeatInterval: 500,
    sessionTimeout: 10_000,
    maxWaitTimeInMs: 500,
    ...opts,
  });
  toClose.push(c);
  return c;
}

/** Collects message values per consumer with eachBatch, committing after every batch. */
async function collect(c: Consumer, topic: string, into: string[]): Promise<void> {
  await c.connect();
  await c.subscribe({ topic, fromBeginning: true });
  await c.run({
    eachBatchAutoResolve: false,
    eachBatch: async ({ batch, resolveOffset, heartbeat, commitOffsetsIfNecessary }: EachBatchPayload) => {
      for (const message of batch.messages) {
        into.push(message.value?.toString() ?? '');
        resolveOffset(message.offset);
      }
      await commitOffsetsIfNecessary();
      await heartbeat();
    },
  });
}

async function committedTotal(groupId: string, topic: string): Promise<number> {
  const offsets = await admin.fetchOffsets({ groupId, topics: [topic] });
  return offsets
    .flatMap((t) => t.partitions)
    .reduce((sum, p) => sum + Math.max(0, Number.parseInt(p.offset, 10)), 0);
}

beforeAll(async () => {
  handle = await ensureKafka({ log: () => {} });
  kafka = new Kafka({
    clientId: `devstack-test-${run}`,
    brokers: handle.brokers,
    logLevel: logLevel.WARN,
    logCreator: quietRetriableLogs,
  });
  admin = kafka.admin();
  await admin.connect();
});

afterAll(async () => {
  await Promise.all(toClose.map((client) => client.disconnect().catch(() => {})));
  await admin?.disconnect();
  // The broker is left running for other test files and later runs (see deploy/kafka/README.md).
});

describe('kafkajs 2.2.4 against the local broker', () => {
  it('creates a topic with explicit partitions and describes it; createTopics is idempotent', async () => {
    const topic = topicName('admin');
    const created = await admin.createTopics({
      topics: [{ topic, numPartitions: 3, configEntries: [{ name: 'retention.ms', value: '3600000' }] }],
      waitForLeaders: true,
    });
    expect(created).toBe(true);

    const { topics } = await admin.fetchTopicMetadata({ topics: [topic] });
    expect(topics).toHaveLength(1);
    expect(topics[0]?.name).toBe(topic);
    expect(topics[0]?.partitions.map((p) => p.partitionId).sort()).toEqual([0, 1, 2]);
    for (const p of topics[0]?.partitions ?? []) {
      expect(p.leader).toBe(1);
      expect(p.replicas).toEqual([1]);
    }

    const configs = await admin.describeConfigs({
      resources: [{ type: kafkajs.ConfigResourceTypes.TOPIC, name: topic, configNames: ['retention.ms'] }],
      includeSynonyms: false,
    });
    expect(
      configs.resources[0]?.configEntries.find((e) => e.configName === 'retention.ms')?.configValue,
    ).toBe('3600000');

    const cluster = await admin.describeCluster();
    expect(cluster.brokers.map((b) => b.nodeId)).toEqual([1]);

    // The helper: existing topic is fine, a new one is created, growing partitions works.
    const helperTopic = topicName('helper');
    await createTopics(handle.brokers, [
      { name: topic, partitions: 3 },
      { name: helperTopic, partitions: 2, config: { 'cleanup.policy': 'compact' } },
    ]);
    await createTopics(handle.brokers, [{ name: helperTopic, partitions: 4 }]);
    const helperMeta = await admin.fetchTopicMetadata({ topics: [helperTopic] });
    expect(helperMeta.topics[0]?.partitions).toHaveLength(4);
    expect(await admin.createTopics({ topics: [{ topic, numPartitions: 3 }] })).toBe(false);
  });

  it('idempotent producer sends and a consumer group reads everything back with eachBatch and commits', async () => {
    const topic = topicName('idem');
    await createTopics(handle.brokers, [{ name: topic, partitions: 3 }]);
    const p = producer({ idempotent: true, maxInFlightRequests: 1 });
    await p.connect();
    const values = Array.from({ length: 30 }, (_, i) => `m-${i}`);
    const results = await p.send({
      topic,
      acks: -1,
      messages: values.map((value, i) => ({ key: `k-${i}`, value })),
    });
    expect(results.every((r) => r.errorCode === 0)).toBe(true);
    expect(new Set(results.map((r) => r.partition)).size).toBeGreaterThan(1);

    const groupId = `devstack-test-group-${run}`;
    const seen: string[] = [];
    await collect(consumer(groupId), topic, seen);
    await waitFor('30 messages', () => seen.length >= 30);
    expect([...seen].sort()).toEqual([...values].sort());
    await waitFor('committed offsets', async () => (await committedTotal(groupId, topic)) === 30);
  });

  it('a second consumer triggers a rebalance and every message is read exactly once', async () => {
    const topic = topicName('rebalance');
    await createTopics(handle.brokers, [{ name: topic, partitions: 4 }]);
    const p = producer({ idempotent: true, maxInFlightRequests: 1 });
    await p.connect();
    const groupId = `devstack-test-rebalance-${run}`;

    const first = Array.from({ length: 20 }, (_, i) => `a-${i}`);
    await p.send({ topic, acks: -1, messages: first.map((value, i) => ({ key: `k-${i}`, value })) });

    const seenA: string[] = [];
    const seenB: string[] = [];
    const a = consumer(groupId);
    let rebalances = 0;
    a.on(a.events.GROUP_JOIN, () => {
      rebalances += 1;
    });
    await collect(a, topic, seenA);
    await waitFor('consumer A reads the first 20', () => seenA.length >= 20);
    await waitFor('A commits the first 20', async () => (await committedTotal(groupId, topic)) === 20);

    const b = consumer(groupId);
    const joinedB = new Promise<number>((resolve) =>
      b.on(b.events.GROUP_JOIN, (e) => resolve(Object.values(e.payload.memberAssignment).flat().length)),
    );
    await collect(b, topic, seenB);
    const partitionsOfB = await joinedB;
    expect(partitionsOfB).toBeGreaterThan(0);
    await waitFor('A rejoins after the rebalance', () => rebalances >= 2);
    const group = await admin.describeGroups([groupId]);
    expect(group.groups[0]?.members).toHaveLength(2);
    expect(group.groups[0]?.state).toBe('Stable');

    const second = Array.from({ length: 40 }, (_, i) => `b-${i}`);
    await p.send({ topic, acks: -1, messages: second.map((value, i) => ({ key: `j-${i}`, value })) });
    await waitFor('60 messages across both consumers', () => seenA.length + seenB.length >= 60);
    await new Promise((resolve) => setTimeout(resolve, 1_000)); // a late duplicate would show up here

    const all = [...seenA, ...seenB];
    expect(all).toHaveLength(60);
    expect(new Set(all).size).toBe(60);
    expect([...all].sort()).toEqual([...first, ...second].sort());
    expect(seenB.length).toBeGreaterThan(0);
    expect(seenB.every((v) => v.startsWith('b-'))).toBe(true);
    await waitFor('all 60 committed', async () => (await committedTotal(groupId, topic)) === 60);
  });

  it('transactions: a committed one is visible, an aborted one is not (read_committed)', async () => {
    const topic = topicName('txn');
    await createTopics(handle.brokers, [{ name: topic, partitions: 1 }]);
    const p = producer({
      transactionalId: `devstack-test-tx-${run}`,
      idempotent: true,
      maxInFlightRequests: 1,
    });
    await p.connect();

    const committed = await p.transaction();
    await committed.send({
      topic,
      acks: -1,
      messages: [{ value: 'c-1' }, { value: 'c-2' }, { value: 'c-3' }],
    });
    await committed.commit();

    const aborted = await p.transaction();
    await aborted.send({ topic, acks: -1, messages: [{ value: 'x-1' }, { value: 'x-2' }] });
    await aborted.abort();

    const last = await p.transaction();
    await last.send({ topic, acks: -1, messages: [{ value: 'c-4' }] });
    await last.commit();

    const readCommitted: string[] = [];
    await collect(consumer(`devstack-test-rc-${run}`, { readUncommitted: false }), topic, readCommitted);
    await waitFor('c-4 under read_committed', () => readCommitted.includes('c-4'));
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(readCommitted).toEqual(['c-1', 'c-2', 'c-3', 'c-4']);

    // The aborted records were really written: read_uncommitted sees them.
    const readUncommitted: string[] = [];
    await collect(consumer(`devstack-test-ru-${run}`, { readUncommitted: true }), topic, readUncommitted);
    await waitFor('c-4 under read_uncommitted', () => readUncommitted.includes('c-4'));
    expect(readUncommitted).toEqual(['c-1', 'c-2', 'c-3', 'x-1', 'x-2', 'c-4']);
  });
});
