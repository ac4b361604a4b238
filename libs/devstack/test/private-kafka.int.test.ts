// The private broker of fault tests: its own cluster beside the shared one, records it acknowledged
// survive a SIGKILL and a restart on the same ports, and destroy() leaves no process or directory.
import { existsSync } from 'node:fs';
import kafkajs from 'kafkajs';
import { afterAll, expect, it } from 'vitest';
import { describeOnce } from '../src/kafka/client.ts';
import { createTopics, LOCAL_BROKERS, type PrivateKafka, startPrivateKafka } from '../src/kafka/index.ts';
import { isAlive } from '../src/kafka/jvm.ts';

const { Kafka, logLevel } = kafkajs;

let broker: PrivateKafka | undefined;
afterAll(() => broker?.destroy());

it('runs a broker of its own that keeps acknowledged records through SIGKILL and restart, and cleans up', async () => {
  broker = await startPrivateKafka();
  const shared = await describeOnce(LOCAL_BROKERS);
  expect((await describeOnce(broker.brokers)).clusterId).toBe(broker.clusterId);
  expect(broker.clusterId).not.toBe(shared.clusterId);
  expect(broker.brokers[0]).not.toBe(LOCAL_BROKERS[0]);

  await createTopics(broker.brokers, [{ name: 'kept', partitions: 2 }]);
  const kafka = new Kafka({
    clientId: 'private-kafka-test',
    brokers: broker.brokers,
    logLevel: logLevel.NOTHING,
  });
  const producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
  await producer.connect();
  await producer.send({
    topic: 'kept',
    acks: -1,
    messages: Array.from({ length: 50 }, (_, i) => ({ key: `k${i}`, value: `v${i}` })),
  });
  await producer.disconnect();

  const pid = broker.pid()!;
  await broker.stop('SIGKILL');
  expect([isAlive(pid), broker.pid()]).toEqual([false, undefined]);
  const [address] = broker.brokers;
  await broker.start();
  expect(broker.brokers[0]).toBe(address);

  const admin = kafka.admin();
  await admin.connect();
  try {
    const offsets = await admin.fetchTopicOffsets('kept');
    expect(offsets.reduce((sum, p) => sum + Number(p.high), 0)).toBe(50);
  } finally {
    await admin.disconnect();
  }
  // The shared broker kept running all along.
  expect((await describeOnce(LOCAL_BROKERS)).clusterId).toBe(shared.clusterId);

  const restarted = broker.pid()!;
  await broker.destroy();
  expect([isAlive(restarted), existsSync(broker.dir)]).toEqual([false, false]);
}, 120_000);

it('offers a second way in through a link that cuts its clients off while the broker and direct clients go on', async () => {
  const linked = await startPrivateKafka({ link: true });
  try {
    const link = linked.link!;
    expect(link.brokers[0]).not.toBe(linked.brokers[0]);
    // Clients bootstrapped on the link are told to stay on it.
    const admin = new Kafka({
      clientId: 'link-test',
      brokers: link.brokers,
      logLevel: logLevel.NOTHING,
    }).admin();
    await admin.connect();
    try {
      const { brokers } = await admin.describeCluster();
      expect(brokers.map((b) => `${b.host}:${b.port}`)).toEqual(link.brokers);
    } finally {
      await admin.disconnect();
    }
    link.cut();
    await expect(describeOnce(link.brokers, 1_000)).rejects.toThrow();
    expect((await describeOnce(linked.brokers)).clusterId).toBe(linked.clusterId);
    await link.restore();
    expect((await describeOnce(link.brokers)).clusterId).toBe(linked.clusterId);
  } finally {
    await linked.destroy();
  }
}, 120_000);
