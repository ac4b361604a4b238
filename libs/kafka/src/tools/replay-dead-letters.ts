// `npm run replay-dead-letters -- <schema> <id>...`: publishes the named dead letters of a service's
// schema (rules, ledger, query) again, unchanged, each to its topic with its key and
// headers, and marks them replayed. Reads DATABASE_URL and the services' Kafka settings. For use once the cause is
// fixed; see docs/operating.md#dead-letters.
import { createLogger, kafkaEnv, parseEnv, postgresEnv, withKafkaSecurity } from '@engage/kit';
import { createPool } from '@engage/postgres';
import { connectProducer, createKafka } from '../client.ts';
import { replayDeadLetters } from '../dead-letters.ts';

const [schema, ...rest] = process.argv.slice(2);
const ids = rest.map(Number);
if (!schema || ids.length === 0 || ids.some((id) => !Number.isSafeInteger(id))) {
  process.stderr.write('usage: replay-dead-letters <schema> <dead-letter id>...\n');
  process.exit(2);
}
const env = parseEnv(postgresEnv.extend(kafkaEnv.shape).transform(withKafkaSecurity));
const log = createLogger('replay-dead-letters', 'warn');
const pool = createPool({ url: env.DATABASE_URL, schema, max: 1 });
const producer = await connectProducer(
  createKafka({
    brokers: env.KAFKA_BROKERS,
    clientId: 'replay-dead-letters',
    log,
    security: env.kafkaSecurity,
  }),
);
try {
  const { replayed, missing } = await replayDeadLetters(pool, producer, ids);
  for (const { id, topic } of replayed) process.stdout.write(`replayed ${id} to ${topic}\n`);
  if (missing.length > 0) {
    process.stderr.write(`no dead letter with id ${missing.join(', ')} in ${schema}\n`);
    process.exitCode = 1;
  }
} finally {
  await producer.disconnect();
  await pool.end();
}
