// `npm run migrate`: migrates every service's schema and creates the catalog's topics, against
// DATABASE_URL and KAFKA_BROKERS with the services' Kafka security settings (the same command a
// Kubernetes Job runs before a rollout).

import { kafkaConnectionEnv, parseEnv } from '@engage/kit';
import { findRepoRoot } from '../kafka/paths.ts';
import { createCatalogTopics, migrateAll } from '../stack/infra.ts';
import { printProcessWarnings } from './warnings.ts';

printProcessWarnings();

const databaseUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/engage';
const kafka = parseEnv(kafkaConnectionEnv);
const replicationFactor = Number(process.env.KAFKA_TOPIC_REPLICATION_FACTOR ?? '1');

await migrateAll(findRepoRoot(), databaseUrl, (line) => process.stdout.write(`${line}\n`));
await createCatalogTopics(kafka.KAFKA_BROKERS, kafka.KAFKA_TOPIC_PREFIX, {
  replicationFactor,
  security: kafka.kafkaSecurity,
});
process.stdout.write('schemas migrated and topics created\n');
