import { type AcceptedEvent, topics } from '@engage/contracts';
import { createCatalogTopics } from '@engage/devstack';
import { createLogger } from '@engage/kit';
import type { Pool } from '@engage/postgres';
import {
  acceptedEvent,
  eventually,
  randomEnvironment,
  readTopicRecords,
  stackConfig,
  uniqueTopicPrefix,
} from '@engage/testkit';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createKafka, enqueueOutbox, type OutboxRelay, startOutboxRelay } from '../src/index.ts';
import { migratedPool } from './migrated-pool.ts';

const SCHEMA = 'kafka_outbox_relay_test';
/** The relay's pool (its statements recorded) and the test's own. */
let pool: Pool;
let admin: Pool;
/** The first word of every statement the relay's connections ran, in order. */
const statements: string[] = [];
let relay: OutboxRelay | undefined;

beforeAll(async () => {
  pool = await migratedPool(SCHEMA, 2, true);
  admin = await migratedPool(SCHEMA, 2);
  pool.on('connect', (client) => {
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    client.query = ((config: string | { text: string }, ...rest: unknown[]) => {
      statements.push((typeof config === 'string' ? config : config.text).trim().split(/\s/)[0]!);
      return query(config, ...rest);
    }) as typeof client.query;
  });
});
afterAll(async () => {
  await relay?.stop();
  await pool?.end();
  await admin?.end();
});

const enqueue = async (prefix: string, records: AcceptedEvent[]) => {
  const client = await admin.connect();
  try {
    await enqueueOutbox(client, topics.eventsAccepted, prefix, records);
  } finally {
    client.release();
  }
};

it('publishes in id order, waits while another relay holds the lock, and takes BEGIN, one statement and COMMIT per publish', async () => {
  const { brokers } = stackConfig();
  const prefix = uniqueTopicPrefix();
  await createCatalogTopics(brokers, prefix);
  const env = randomEnvironment();
  const first = Array.from({ length: 5 }, () => acceptedEvent(env, 'p1'));
  await enqueue(prefix, first);

  // Another relay of the schema (here: a session holding its lock) is publishing.
  const other = await admin.connect();
  await other.query('SELECT pg_advisory_lock($1, hashtext(current_schema()))', [0x6e676167]);
  const log = createLogger('outbox-relay-test', 'error');
  relay = startOutboxRelay({
    pool,
    kafka: createKafka({ brokers, clientId: 'relay-test', log }),
    log,
    idleMs: 20,
  });
  await eventually('the relay to try twice', async () =>
    statements.filter((s) => s === 'COMMIT').length >= 2 ? true : undefined,
  );
  const { rows: waiting } = await admin.query('SELECT count(*)::int AS n FROM outbox');
  expect(waiting[0].n).toBe(first.length);

  await other.query('SELECT pg_advisory_unlock($1, hashtext(current_schema()))', [0x6e676167]);
  other.release();
  const second = Array.from({ length: 5 }, () => acceptedEvent(env, 'p1'));
  await enqueue(prefix, second);
  relay.kick();
  await eventually('the outbox to be empty', async () => {
    const { rows } = await admin.query('SELECT count(*)::int AS n FROM outbox');
    return rows[0].n === 0 ? true : undefined;
  });
  await relay.stop();
  relay = undefined;

  const published = await readTopicRecords(prefix, topics.eventsAccepted);
  expect(published.map((r) => r.eventId)).toEqual([...first, ...second].map((r) => r.eventId));
  // Each of the relay's transactions: BEGIN, the statement that locks and takes rows, COMMIT.
  const relayTransactions = statements.join(' ').split(/ (?=BEGIN)/);
  expect(relayTransactions.length).toBeGreaterThan(2);
  expect(new Set(relayTransactions)).toEqual(new Set(['BEGIN WITH COMMIT']));
});
