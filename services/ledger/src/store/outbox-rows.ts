import type { PoolClient } from '@engage/postgres';

/** A record encoded for the outbox (see journalOutboxRow), published by the relay after commit. */
export interface OutboxRow {
  topic: string;
  key: string;
  value: Buffer;
  headers: Record<string, unknown>;
}

/** Writes the outbox rows of one transaction in one statement (the relay publishes them in id order). */
export async function insertOutboxRows(client: PoolClient, rows: OutboxRow[]): Promise<void> {
  if (rows.length === 0) return;
  await client.query({
    name: 'ledger.insert-outbox-rows',
    text: `INSERT INTO outbox (topic, key, value, headers)
     SELECT * FROM unnest($1::text[], $2::text[], $3::bytea[], $4::jsonb[])`,
    values: [
      rows.map((r) => r.topic),
      rows.map((r) => r.key),
      rows.map((r) => r.value),
      rows.map((r) => JSON.stringify(r.headers)),
    ],
  });
}
