import { ensureInfra, ensureKafkaJars, findRepoRoot, migrateAll } from '@engage/devstack';
import { printProcessWarnings } from '@engage/devstack/cli/warnings.ts';
import { recreateDatabase } from '@engage/postgres';
import { closeToConnections, dropCopiesOf } from '@engage/testkit/database-copies.ts';
import type {} from '@engage/testkit/provided.ts';
import type { TestProject } from 'vitest/node';

/**
 * Integration tests run against real servers: Kafka (started from the project's jars unless
 * KAFKA_BROKERS is set), and Postgres and Redis at DATABASE_URL / REDIS_URL or the local defaults.
 * The test database, `engage_test` unless TEST_DATABASE_URL says otherwise, is recreated empty,
 * migrated, and closed to connections here: it is the template each test file's own database is
 * copied from (test/setup/file-database.ts).
 * A broker this setup started is stopped again at the end; one it found running is left alone.
 */
export default async function setup(project: TestProject) {
  printProcessWarnings();
  const databaseUrl = process.env.TEST_DATABASE_URL ?? testDatabaseOf(process.env.DATABASE_URL);
  const log = (line: string) => process.stdout.write(`[stack] ${line}\n`);
  const infra = await ensureInfra({ databaseUrl, log });
  // Tests that stop and restart a broker run one of their own from the jars, even when the shared
  // broker is one found running (or KAFKA_BROKERS).
  await ensureKafkaJars({ log });
  // A run starts from an empty template and no copies: rows an earlier run left (an outbox row for
  // a topic of a broker since wiped, say) must not reach this one.
  await Promise.all([recreateDatabase(infra.databaseUrl), dropCopiesOf(infra.databaseUrl)]);
  await migrateAll(findRepoRoot(), infra.databaseUrl);
  await closeToConnections(infra.databaseUrl);
  project.provide('stack', {
    templateDatabaseUrl: infra.databaseUrl,
    redisUrl: infra.redisUrl,
    brokers: infra.brokers,
    repoRoot: findRepoRoot(),
  });
  return async () => {
    if (infra.kafka.startedHere && !process.env.KEEP_KAFKA) await infra.kafka.stop();
  };
}

function testDatabaseOf(url: string | undefined): string {
  const u = new URL(url ?? 'postgres://postgres@127.0.0.1:5432/engage');
  u.pathname = '/engage_test';
  return u.toString();
}
