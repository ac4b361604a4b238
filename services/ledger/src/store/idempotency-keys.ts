import type { PoolClient } from '@engage/postgres';
import type { KeyClaim, KeyOperation, StoredKey, StoredResponse } from '../domain/idempotency.ts';

export interface KeyRef {
  environmentId: string;
  playerId: string;
  key: string;
}

/** A key row as the write statements return it (row_to_json of the columns below). */
export interface StoredKeyRow {
  operation: KeyOperation;
  target: string;
  request_hash: string;
  response_status: number | null;
  response_body: unknown;
}

export function storedKeyOf(row: StoredKeyRow): StoredKey {
  // A key row is written with its response in one statement, so a committed row always has one.
  if (row.response_status === null) throw new Error('idempotency key without a stored response');
  return {
    operation: row.operation,
    target: row.target,
    requestHash: row.request_hash,
    response: { status: row.response_status, body: row.response_body },
  };
}

/**
 * Claims a key together with the outcome stored under it (a refusal that is the request's answer).
 * A key claimed meanwhile by another replica fails with a unique violation: the transaction runs again
 * and replays it.
 */
export async function insertKeyWithResponse(
  client: PoolClient,
  ref: KeyRef,
  claim: KeyClaim,
  response: StoredResponse,
): Promise<void> {
  await client.query(
    `INSERT INTO idempotency_keys (environment_id, player_id, key, operation, request_hash, target,
                                   response_status, response_body)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [
      ref.environmentId,
      ref.playerId,
      ref.key,
      claim.operation,
      claim.requestHash,
      claim.target,
      response.status,
      JSON.stringify(response.body),
    ],
  );
}
