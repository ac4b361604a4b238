import type { PoolClient } from '@engage/postgres';
import type { KeyClaim, KeyOperation, StoredKey, StoredResponse } from '../domain/idempotency.ts';

export interface KeyRef {
  environmentId: string;
  playerId: string;
  key: string;
}

/**
 * Claims a key for this transaction. When another transaction holds the same key uncommitted, this
 * waits on its row lock; true means the key is ours, false means a committed request owns it.
 */
export async function claimKey(client: PoolClient, ref: KeyRef, claim: KeyClaim): Promise<boolean> {
  const { rowCount } = await client.query(
    `INSERT INTO idempotency_keys (environment_id, player_id, key, operation, request_hash, target)
     VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT DO NOTHING`,
    [ref.environmentId, ref.playerId, ref.key, claim.operation, claim.requestHash, claim.target],
  );
  return rowCount === 1;
}

/** The committed request that owns a key (read after `claimKey` returned false). */
export async function readKey(client: PoolClient, ref: KeyRef): Promise<StoredKey> {
  const { rows } = await client.query<{
    operation: KeyOperation;
    target: string;
    request_hash: string;
    response_status: number | null;
    response_body: unknown;
  }>(
    `SELECT operation, target, request_hash, response_status, response_body
     FROM idempotency_keys WHERE environment_id = $1 AND player_id = $2 AND key = $3`,
    [ref.environmentId, ref.playerId, ref.key],
  );
  const row = rows[0];
  // A key row is written with its response in one transaction, so a committed row always has one.
  if (!row || row.response_status === null) throw new Error('idempotency key without a stored response');
  return {
    operation: row.operation,
    target: row.target,
    requestHash: row.request_hash,
    response: { status: row.response_status, body: row.response_body },
  };
}

export async function storeResponse(
  client: PoolClient,
  ref: KeyRef,
  response: StoredResponse,
): Promise<void> {
  await client.query(
    `UPDATE idempotency_keys SET response_status = $4, response_body = $5
     WHERE environment_id = $1 AND player_id = $2 AND key = $3`,
    [ref.environmentId, ref.playerId, ref.key, response.status, JSON.stringify(response.body)],
  );
}
