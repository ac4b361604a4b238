import type { Pool, PoolClient } from '@engage/postgres';

/**
 * Idempotency keys of event items, scoped per player and per event key. A claim is `pending` until
 * the broker acknowledged the record with its eventId, then `committed`; `abandoned` when the send
 * failed (the record may or may not be in Kafka).
 */

export interface KeyClaim {
  playerId: string;
  eventKey: string;
  idempotencyKey: string;
  eventId: string;
}

export interface StoredKey {
  eventId: string;
  state: 'pending' | 'abandoned' | 'committed';
  ageMs: number;
}

export const claimId = (c: { playerId: string; eventKey: string; idempotencyKey: string }) =>
  `${c.playerId}\u0000${c.eventKey}\u0000${c.idempotencyKey}`;

/**
 * Claims every key not claimed before (one statement) and reads the earlier claim of the others.
 * Returns the claims made now and the stored claims found. A concurrent claim of the same key waits
 * for the other transaction, then is found.
 */
export async function claimKeys(
  client: PoolClient,
  environmentId: string,
  claims: readonly KeyClaim[],
): Promise<{ claimed: Set<string>; found: Map<string, StoredKey> }> {
  const claimed = new Set<string>();
  const found = new Map<string, StoredKey>();
  if (claims.length === 0) return { claimed, found };
  const sorted = [...claims].sort((a, b) => (claimId(a) < claimId(b) ? -1 : 1));
  const inserted = await client.query<{ player_id: string; event_key: string; idempotency_key: string }>(
    `INSERT INTO event_idempotency_keys (environment_id, player_id, event_key, idempotency_key, event_id)
     SELECT $1, * FROM unnest($2::text[], $3::text[], $4::text[], $5::uuid[])
     ON CONFLICT DO NOTHING
     RETURNING player_id, event_key, idempotency_key`,
    claimArrays(environmentId, sorted),
  );
  for (const row of inserted.rows) {
    claimed.add(
      claimId({ playerId: row.player_id, eventKey: row.event_key, idempotencyKey: row.idempotency_key }),
    );
  }
  const others = sorted.filter((c) => !claimed.has(claimId(c)));
  if (others.length > 0) {
    for (const [id, key] of await readKeys(client, environmentId, others)) found.set(id, key);
  }
  return { claimed, found };
}

export async function readKeys(
  db: Pool | PoolClient,
  environmentId: string,
  keys: readonly Omit<KeyClaim, 'eventId'>[],
): Promise<Map<string, StoredKey>> {
  const { rows } = await db.query<{
    player_id: string;
    event_key: string;
    idempotency_key: string;
    event_id: string;
    state: 'pending' | 'abandoned' | 'committed';
    age_ms: number;
  }>(
    `SELECT k.player_id, k.event_key, k.idempotency_key, k.event_id, k.state,
            (extract(epoch FROM clock_timestamp() - k.claimed_at) * 1000)::float8 AS age_ms
     FROM unnest($2::text[], $3::text[], $4::text[]) AS t(player_id, event_key, idempotency_key)
     JOIN event_idempotency_keys k ON k.environment_id = $1 AND k.player_id = t.player_id
       AND k.event_key = t.event_key AND k.idempotency_key = t.idempotency_key`,
    [
      environmentId,
      keys.map((c) => c.playerId),
      keys.map((c) => c.eventKey),
      keys.map((c) => c.idempotencyKey),
    ],
  );
  return new Map(
    rows.map((row) => [
      claimId({ playerId: row.player_id, eventKey: row.event_key, idempotencyKey: row.idempotency_key }),
      { eventId: row.event_id, state: row.state, ageMs: row.age_ms },
    ]),
  );
}

/** Marks claims committed once their records are acknowledged by the broker. */
export async function commitKeys(db: Pool | PoolClient, environmentId: string, claims: readonly KeyClaim[]) {
  if (claims.length === 0) return;
  await db.query(
    `UPDATE event_idempotency_keys k SET state = 'committed'
     FROM unnest($2::text[], $3::text[], $4::text[], $5::uuid[]) AS t(player_id, event_key, idempotency_key, event_id)
     WHERE k.environment_id = $1 AND k.player_id = t.player_id AND k.event_key = t.event_key
       AND k.idempotency_key = t.idempotency_key AND k.event_id = t.event_id AND k.state <> 'committed'`,
    claimArrays(environmentId, claims),
  );
}

/**
 * Marks the claims of a batch whose send failed: the broker may or may not have written them, so
 * they keep their eventId and the next retry produces them again at once.
 */
export async function abandonKeys(db: Pool | PoolClient, environmentId: string, claims: readonly KeyClaim[]) {
  if (claims.length === 0) return;
  await db.query(
    `UPDATE event_idempotency_keys k SET state = 'abandoned'
     FROM unnest($2::text[], $3::text[], $4::text[], $5::uuid[]) AS t(player_id, event_key, idempotency_key, event_id)
     WHERE k.environment_id = $1 AND k.player_id = t.player_id AND k.event_key = t.event_key
       AND k.idempotency_key = t.idempotency_key AND k.event_id = t.event_id AND k.state = 'pending'`,
    claimArrays(environmentId, claims),
  );
}

/** Drops the claims of items refused in the same transaction (nobody saw them). */
export async function releaseKeys(db: Pool | PoolClient, environmentId: string, claims: readonly KeyClaim[]) {
  if (claims.length === 0) return;
  await db.query(
    `DELETE FROM event_idempotency_keys k
     USING unnest($2::text[], $3::text[], $4::text[], $5::uuid[]) AS t(player_id, event_key, idempotency_key, event_id)
     WHERE k.environment_id = $1 AND k.player_id = t.player_id AND k.event_key = t.event_key
       AND k.idempotency_key = t.idempotency_key AND k.event_id = t.event_id AND k.state = 'pending'`,
    claimArrays(environmentId, claims),
  );
}

const claimArrays = (environmentId: string, claims: readonly KeyClaim[]) => [
  environmentId,
  claims.map((c) => c.playerId),
  claims.map((c) => c.eventKey),
  claims.map((c) => c.idempotencyKey),
  claims.map((c) => c.eventId),
];

/** Forgets keys older than the topic keeps events; returns how many were deleted. */
export async function expireKeys(db: Pool, olderThanMs: number, limit = 10_000): Promise<number> {
  const { rowCount } = await db.query(
    `DELETE FROM event_idempotency_keys WHERE ctid IN (
       SELECT ctid FROM event_idempotency_keys
       WHERE claimed_at < now() - make_interval(secs => $1::float8 / 1000) LIMIT $2)`,
    [olderThanMs, limit],
  );
  return rowCount ?? 0;
}
