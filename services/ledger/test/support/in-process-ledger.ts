import { createKafka, startOutboxRelay } from '@engage/kafka';
import { createLogger, type HttpApp } from '@engage/kit';
import { createPool, type Pool } from '@engage/postgres';
import { stackConfig, testVerifier, uniqueTopicPrefix } from '@engage/testkit';
import { buildApp } from '../../src/app.ts';
import { createMarketplaceCatalog } from '../../src/application/marketplace-catalog.ts';
import { createWriteQueue } from '../../src/application/write-queue.ts';
import { createLedgerTopics } from './journal-topic-setup.ts';

export interface InProcessLedger {
  app: HttpApp;
  pool: Pool;
  topicPrefix: string;
  brokers: string[];
  close: () => Promise<void>;
}

/**
 * The ledger's HTTP app in this process, on the real test database, with its own journal topic and a
 * real outbox relay publishing to it (as server.ts wires them).
 */
export async function startInProcessLedger(options: { maxBatch?: number } = {}): Promise<InProcessLedger> {
  const { databaseUrl, brokers } = stackConfig();
  const log = createLogger('ledger-test', 'error');
  const topicPrefix = uniqueTopicPrefix();
  const kafka = createKafka({ brokers, clientId: 'ledger-test', log });
  await createLedgerTopics(brokers, topicPrefix);
  const pool = createPool({ url: databaseUrl, schema: 'ledger', max: 10, pipeline: true });
  const relay = startOutboxRelay({ pool, kafka, log, topicPrefix, idleMs: 50 });
  const app = buildApp({
    log,
    pool,
    topicPrefix,
    onJournalCommitted: relay.kick,
    batcher: createWriteQueue(pool, { topicPrefix, maxBatch: options.maxBatch ?? 64 }),
    marketplace: createMarketplaceCatalog(pool),
    verifier: testVerifier(),
  });
  await app.ready();
  return {
    app,
    pool,
    topicPrefix,
    brokers,
    close: async () => {
      await app.close();
      await relay.stop();
      await pool.end();
    },
  };
}
