import { Counter, metricsRegistry } from '@engage/kit';
import type { PoolClient } from '@engage/postgres';

export interface DeadLetter {
  topic: string;
  partition: number;
  offset: string;
  key: string;
  raw: Buffer | null;
  error: string;
}

export const deadLettered = new Counter({
  name: 'ledger_reward_grants_dead_lettered_total',
  help: 'Reward-grant records the ledger could not apply and kept in reward_grant_dead_letters.',
  labelNames: ['reason'],
  registers: [metricsRegistry],
});

/** Keeps a record the ledger cannot apply, in the transaction that moves the offset past it. */
export async function storeDeadLetter(
  client: PoolClient,
  letter: DeadLetter,
  reason: 'undecodable' | 'malformed',
): Promise<void> {
  // A redelivery of an offset already kept (the offset row filters it, so only a replay) keeps one copy.
  await client.query(
    `INSERT INTO reward_grant_dead_letters (topic, partition, "offset", record_key, raw, error)
     VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING`,
    [letter.topic, letter.partition, letter.offset, letter.key, letter.raw, letter.error],
  );
  deadLettered.inc({ reason });
}
