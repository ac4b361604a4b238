import { existsSync } from 'node:fs';
import { allTopics, type TopicDefinition } from '@engage/contracts';
import { createKafka, ensureTopics, type KafkaSecurity } from '@engage/kafka';
import { createLogger } from '@engage/kit';
import { migrate } from '@engage/postgres';
import { Redis } from 'ioredis';
import pg from 'pg';
import { ensureKafka, type KafkaHandle } from '../kafka/index.ts';
import { SERVICES, serviceMigrations } from './services.ts';

export const DEFAULT_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/engage';
export const DEFAULT_REDIS_URL = 'redis://127.0.0.1:6379';

export interface Infra {
  databaseUrl: string;
  redisUrl: string;
  brokers: string[];
  security: KafkaSecurity;
  kafka: KafkaHandle;
}

/**
 * Finds or starts what the services need: Kafka (started from the project's own jars unless
 * KAFKA_BROKERS names a cluster), and the Postgres and Redis servers named by DATABASE_URL and
 * REDIS_URL (the local servers by default). Fails with a clear message when one cannot be reached.
 */
export async function ensureInfra(options: {
  databaseUrl?: string;
  redisUrl?: string;
  log?: (line: string) => void;
}): Promise<Infra> {
  const log = options.log ?? ((line) => process.stdout.write(`${line}\n`));
  const databaseUrl = options.databaseUrl ?? process.env.DATABASE_URL ?? DEFAULT_DATABASE_URL;
  const redisUrl = options.redisUrl ?? process.env.REDIS_URL ?? DEFAULT_REDIS_URL;
  await Promise.all([waitForPostgres(databaseUrl), waitForRedis(redisUrl)]);
  log(`postgres: ${redact(databaseUrl)}  redis: ${redact(redisUrl)}`);
  const kafka = await ensureKafka({ log });
  log(`kafka: ${kafka.brokers.join(',')}${kafka.startedHere ? ' (started)' : ' (found running)'}`);
  return { databaseUrl, redisUrl, brokers: kafka.brokers, security: kafka.security, kafka };
}

/** Migrates every service's schema (the kit tables, then the service's own migrations). */
export async function migrateAll(
  repoRoot: string,
  databaseUrl: string,
  log?: (line: string) => void,
): Promise<void> {
  for (const service of SERVICES) {
    const dir = serviceMigrations(repoRoot, service.name);
    if (existsSync(dir)) await migrate({ databaseUrl, schema: service.schema, dir, log });
  }
}

/** Creates the catalog's topics (or the `topics` given) under `topicPrefix` with their partition counts. */
export async function createCatalogTopics(
  brokers: string[],
  topicPrefix: string,
  options: {
    replicationFactor?: number;
    topics?: TopicDefinition<unknown>[];
    security?: KafkaSecurity | undefined;
  } = {},
): Promise<void> {
  const log = createLogger('provision', 'warn');
  const kafka = createKafka({ brokers, clientId: 'provision', log, security: options.security });
  await ensureTopics(
    kafka,
    topicPrefix,
    cappedPartitions(options.topics ?? allTopics()),
    options.replicationFactor ?? 1,
  );
}

/**
 * KAFKA_TOPIC_MAX_PARTITIONS caps the catalog's partition counts for throwaway topics: the test suite
 * creates topics of its own per stack, and a single local broker keeps a few files open per
 * partition (its open-file limit is the bound).
 */
function cappedPartitions(defs: TopicDefinition<unknown>[]): TopicDefinition<unknown>[] {
  const cap = Number(process.env.KAFKA_TOPIC_MAX_PARTITIONS ?? '0');
  return cap > 0 ? defs.map((def) => ({ ...def, partitions: Math.min(def.partitions, cap) })) : defs;
}

async function waitForPostgres(url: string, timeoutMs = 20_000): Promise<void> {
  const admin = new URL(url);
  admin.pathname = '/postgres';
  await retryUntil(timeoutMs, `Postgres at ${redact(url)}`, async () => {
    const client = new pg.Client({ connectionString: admin.toString(), connectionTimeoutMillis: 2_000 });
    await client.connect();
    await client.end();
  });
}

async function waitForRedis(url: string, timeoutMs = 20_000): Promise<void> {
  await retryUntil(timeoutMs, `Redis at ${redact(url)}`, async () => {
    const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    try {
      await redis.connect();
      await redis.ping();
    } finally {
      redis.disconnect();
    }
  });
}

async function retryUntil(timeoutMs: number, what: string, attempt: () => Promise<void>): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await attempt();
    } catch (err) {
      if (Date.now() > deadline) {
        throw new Error(
          `${what} is not reachable: ${(err as Error).message}. Start it, or point the URL elsewhere.`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
}

function redact(url: string): string {
  const u = new URL(url);
  if (u.password) u.password = '***';
  return u.toString();
}
