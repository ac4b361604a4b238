// `node services/ledger/src/tools/replay-dead-letters.ts <id>...`: publishes the named dead-lettered
// reward-grant records again, byte for byte with their original key, and marks them replayed. For use
// once the cause is fixed (a ledger that now accepts them); see docs/operating.md. The grantId
// dedupe makes a replay of a grant that was credited meanwhile a no-op.
import { connectProducer, createKafka } from '@engage/kafka';
import { createLogger, kafkaEnv, parseEnv, postgresEnv } from '@engage/kit';
import { createPool } from '@engage/postgres';

const ids = process.argv.slice(2).map(Number);
if (ids.length === 0 || ids.some((id) => !Number.isSafeInteger(id))) {
  process.stderr.write('usage: replay-dead-letters.ts <dead-letter id>...\n');
  process.exit(2);
}
const env = parseEnv(postgresEnv.extend(kafkaEnv.shape));
const log = createLogger('ledger-replay', 'warn');
const pool = createPool({ url: env.DATABASE_URL, schema: 'ledger', max: 1 });
const producer = await connectProducer(
  createKafka({ brokers: env.KAFKA_BROKERS, clientId: 'ledger-replay', log }),
);
try {
  const { rows } = await pool.query<{ id: number; topic: string; record_key: string; raw: Buffer | null }>(
    'SELECT id, topic, record_key, raw FROM reward_grant_dead_letters WHERE id = ANY($1) ORDER BY id',
    [ids],
  );
  for (const row of rows) {
    await producer.send({ topic: row.topic, acks: -1, messages: [{ key: row.record_key, value: row.raw }] });
    await pool.query('UPDATE reward_grant_dead_letters SET replayed_at = now() WHERE id = $1', [row.id]);
    process.stdout.write(`replayed ${row.id} to ${row.topic}\n`);
  }
  const missing = ids.filter((id) => !rows.some((row) => row.id === id));
  if (missing.length > 0) process.stderr.write(`no dead letter with id ${missing.join(', ')}\n`);
} finally {
  await producer.disconnect();
  await pool.end();
}
