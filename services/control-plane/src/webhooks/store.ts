import { randomUUID } from 'node:crypto';
import type {
  WebhookDelivery,
  WebhookDeliveryPage,
  WebhookDeliveryStatus,
  WebhookEndpoint,
} from '@engage/contracts/http/webhooks.ts';
import type { Pool, PoolClient } from '@engage/postgres';

/** SQL of webhook endpoints and their deliveries. */

type Queryable = Pool | PoolClient;

interface EndpointRow {
  webhook_id: string;
  environment_id: string;
  url: string;
  description: string;
  event_types: string[];
  rank_threshold: number;
  status: 'active' | 'paused';
  paused_reason: string | null;
  paused_at: Date | null;
  secret: string;
  previous_secret: string | null;
  previous_secret_expires_at: Date | null;
  secret_rotated_at: Date | null;
  last_delivery_at: Date | null;
  last_status: 'delivered' | 'failed' | null;
  consecutive_failures: number;
  created_at: Date;
  updated_at: Date;
  pending_deliveries: string;
}

const iso = (date: Date | null) => (date ? date.toISOString() : null);

const ENDPOINT_COLUMNS = `e.*, (SELECT count(*) FROM webhook_deliveries d
                                WHERE d.webhook_id = e.webhook_id AND d.status = 'pending') AS pending_deliveries`;

function toEndpoint(row: EndpointRow): WebhookEndpoint {
  return {
    id: row.webhook_id,
    environmentId: row.environment_id,
    url: row.url,
    description: row.description,
    eventTypes: row.event_types as WebhookEndpoint['eventTypes'],
    rankThreshold: row.rank_threshold,
    status: row.status,
    pausedReason: row.paused_reason,
    pausedAt: iso(row.paused_at),
    secretRotatedAt: iso(row.secret_rotated_at),
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    health: {
      lastDeliveryAt: iso(row.last_delivery_at),
      lastStatus: row.last_status,
      consecutiveFailures: row.consecutive_failures,
      pendingDeliveries: Number(row.pending_deliveries),
    },
  };
}

export interface NewEndpoint {
  environmentId: string;
  url: string;
  description: string;
  eventTypes: string[];
  rankThreshold: number;
  secret: string;
}

/**
 * The number of endpoints of the environment, holding its row until the transaction ends so two
 * creations at once count one after the other (a limit checked on the count then holds). The count
 * is a statement of its own: it must see what a creation it waited for committed.
 */
export async function countEndpointsForInsert(client: PoolClient, environmentId: string): Promise<number> {
  await client.query('SELECT 1 FROM environments WHERE environment_id = $1 FOR NO KEY UPDATE', [
    environmentId,
  ]);
  const { rows } = await client.query<{ endpoints: number }>(
    'SELECT count(*)::int AS endpoints FROM webhook_endpoints WHERE environment_id = $1',
    [environmentId],
  );
  return rows[0]!.endpoints;
}

export async function insertEndpoint(db: Queryable, input: NewEndpoint): Promise<WebhookEndpoint> {
  const { rows } = await db.query<EndpointRow>(
    `WITH e AS (
       INSERT INTO webhook_endpoints (webhook_id, environment_id, url, description, event_types, rank_threshold, secret)
       VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING *)
     SELECT e.*, 0 AS pending_deliveries FROM e`,
    [
      randomUUID(),
      input.environmentId,
      input.url,
      input.description,
      input.eventTypes,
      input.rankThreshold,
      input.secret,
    ],
  );
  return toEndpoint(rows[0]!);
}

export async function findEndpoint(
  db: Queryable,
  webhookId: string,
  options: { forUpdate?: boolean } = {},
): Promise<WebhookEndpoint | undefined> {
  const lock = options.forUpdate ? 'FOR UPDATE OF e' : '';
  const { rows } = await db.query<EndpointRow>(
    `SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints e WHERE e.webhook_id = $1 ${lock}`,
    [webhookId],
  );
  return rows[0] && toEndpoint(rows[0]);
}

export async function listEndpoints(db: Queryable, environmentId: string): Promise<WebhookEndpoint[]> {
  const { rows } = await db.query<EndpointRow>(
    `SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints e WHERE e.environment_id = $1
      ORDER BY e.created_at, e.webhook_id`,
    [environmentId],
  );
  return rows.map(toEndpoint);
}

export interface EndpointChanges {
  url?: string | undefined;
  description?: string | undefined;
  eventTypes?: string[] | undefined;
  rankThreshold?: number | undefined;
  status?: 'active' | 'paused' | undefined;
}

/**
 * Applies the changes; pausing records when (an operator's pause has no reason), resuming clears
 * the pause and the failure count.
 */
export async function updateEndpoint(
  db: Queryable,
  webhookId: string,
  changes: EndpointChanges,
): Promise<WebhookEndpoint | undefined> {
  const { rows } = await db.query<EndpointRow>(
    `WITH e AS (
       UPDATE webhook_endpoints SET
         url = COALESCE($2, url),
         description = COALESCE($3, description),
         event_types = COALESCE($4, event_types),
         rank_threshold = COALESCE($5, rank_threshold),
         paused_at = CASE WHEN $6 = 'paused' AND status = 'active' THEN now()
                          WHEN $6 = 'active' THEN NULL ELSE paused_at END,
         paused_reason = CASE WHEN $6 = 'active' THEN NULL ELSE paused_reason END,
         consecutive_failures = CASE WHEN $6 = 'active' AND status = 'paused' THEN 0 ELSE consecutive_failures END,
         status = COALESCE($6, status),
         updated_at = now()
       WHERE webhook_id = $1 RETURNING *)
     SELECT ${ENDPOINT_COLUMNS} FROM e`,
    [
      webhookId,
      changes.url ?? null,
      changes.description ?? null,
      changes.eventTypes ?? null,
      changes.rankThreshold ?? null,
      changes.status ?? null,
    ],
  );
  return rows[0] && toEndpoint(rows[0]);
}

export async function deleteEndpoint(db: Queryable, webhookId: string): Promise<boolean> {
  const { rowCount } = await db.query('DELETE FROM webhook_endpoints WHERE webhook_id = $1', [webhookId]);
  return (rowCount ?? 0) > 0;
}

/** Makes `secret` the signing secret; the one it replaces also signs until `previousExpiresAt`. */
export async function rotateSecret(
  db: Queryable,
  webhookId: string,
  secret: string,
  overlapSeconds: number,
): Promise<{ previousSecretExpiresAt: string | null } | undefined> {
  const { rows } = await db.query<{ previous_secret_expires_at: Date | null }>(
    `UPDATE webhook_endpoints SET
       previous_secret = CASE WHEN $3 > 0 THEN secret END,
       previous_secret_expires_at = CASE WHEN $3 > 0 THEN now() + make_interval(secs => $3) END,
       secret = $2, secret_rotated_at = now(), updated_at = now()
     WHERE webhook_id = $1 RETURNING previous_secret_expires_at`,
    [webhookId, secret, overlapSeconds],
  );
  return rows[0] && { previousSecretExpiresAt: iso(rows[0].previous_secret_expires_at) };
}

/** The endpoints, active or paused, of these environments: what a consumed change is matched against. */
export async function endpointsOfEnvironments(db: Queryable, environmentIds: string[]) {
  const { rows } = await db.query<{
    webhook_id: string;
    environment_id: string;
    event_types: string[];
    rank_threshold: number;
    created_at: Date;
  }>(
    `SELECT webhook_id, environment_id, event_types, rank_threshold, created_at
       FROM webhook_endpoints WHERE environment_id = ANY($1::uuid[])`,
    [environmentIds],
  );
  return rows.map((row) => ({
    webhookId: row.webhook_id,
    environmentId: row.environment_id,
    eventTypes: row.event_types,
    rankThreshold: row.rank_threshold,
    createdAt: row.created_at,
  }));
}

// Deliveries

export interface NewDelivery {
  webhookId: string;
  eventType: string;
  playerId: string | null;
  sourceId: string;
  /** The body without its `id`: the delivery's id is added here. */
  payload: { type: string; timestamp: string; environmentId: string; data: unknown };
}

/**
 * Inserts the deliveries in the given order (their chains' order); a change already made into a
 * delivery for the endpoint is skipped. Answers how many were inserted.
 */
export async function insertDeliveries(db: Queryable, deliveries: NewDelivery[]): Promise<number> {
  if (deliveries.length === 0) return 0;
  const ids = deliveries.map(() => randomUUID());
  const { rowCount } = await db.query(
    `INSERT INTO webhook_deliveries (delivery_id, webhook_id, event_type, player_id, order_key, source_id, payload)
     SELECT d.id, d.webhook_id, d.event_type, d.player_id, COALESCE(d.player_id, d.id::text), d.source_id,
            jsonb_build_object('id', d.id) || d.payload
       FROM unnest($1::uuid[], $2::uuid[], $3::text[], $4::text[], $5::text[], $6::jsonb[])
              WITH ORDINALITY AS d(id, webhook_id, event_type, player_id, source_id, payload, n)
      ORDER BY d.n
     ON CONFLICT (webhook_id, source_id) DO NOTHING`,
    [
      ids,
      deliveries.map((d) => d.webhookId),
      deliveries.map((d) => d.eventType),
      deliveries.map((d) => d.playerId),
      deliveries.map((d) => d.sourceId),
      deliveries.map((d) => JSON.stringify(d.payload)),
    ],
  );
  return rowCount ?? 0;
}

interface DeliveryRow {
  delivery_id: string;
  webhook_id: string;
  event_type: string;
  player_id: string | null;
  status: WebhookDeliveryStatus;
  attempts: number;
  next_attempt_at: Date;
  last_attempt_at: Date | null;
  response_status: number | null;
  response_time_ms: number | null;
  last_error: string | null;
  created_at: Date;
  created_at_text: string;
  payload: Record<string, unknown>;
}

const DELIVERY_COLUMNS = 'd.*, d.created_at::text AS created_at_text';

const toDelivery = (row: DeliveryRow): WebhookDelivery => ({
  id: row.delivery_id,
  webhookId: row.webhook_id,
  eventType: row.event_type,
  playerId: row.player_id,
  status: row.status,
  attempts: row.attempts,
  nextAttemptAt: row.status === 'pending' ? row.next_attempt_at.toISOString() : null,
  lastAttemptAt: iso(row.last_attempt_at),
  responseStatus: row.response_status,
  responseTimeMs: row.response_time_ms,
  lastError: row.last_error,
  createdAt: row.created_at.toISOString(),
  payload: row.payload,
});

/** A delivery of the endpoint queued now (a ping): its own chain, sent at once. */
export async function insertDelivery(db: Queryable, delivery: NewDelivery): Promise<WebhookDelivery> {
  const id = randomUUID();
  const { rows } = await db.query<DeliveryRow>(
    `INSERT INTO webhook_deliveries AS d (delivery_id, webhook_id, event_type, player_id, order_key, source_id, payload)
     VALUES ($1::uuid, $2, $3, $4, COALESCE($4, $1::text), $5, jsonb_build_object('id', $1::text) || $6::jsonb)
     RETURNING ${DELIVERY_COLUMNS}`,
    [
      id,
      delivery.webhookId,
      delivery.eventType,
      delivery.playerId,
      delivery.sourceId,
      JSON.stringify(delivery.payload),
    ],
  );
  return toDelivery(rows[0]!);
}

/** The cursor of a page: the last row's creation time (as Postgres writes it, to the microsecond) and id. */
const encodeCursor = (row: DeliveryRow) =>
  Buffer.from(JSON.stringify([row.created_at_text, row.delivery_id])).toString('base64url');

/** A timestamptz as Postgres writes it in UTC: `2026-01-02 03:04:05.678901+00`. */
const POSTGRES_TIMESTAMP = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(\.\d{1,6})?[+-]\d\d(:\d\d)?$/;

function decodeCursor(cursor: string): [string, string] | undefined {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (!Array.isArray(value) || value.length !== 2) return undefined;
    const [at, id] = value as unknown[];
    if (typeof at !== 'string' || !POSTGRES_TIMESTAMP.test(at)) return undefined;
    if (typeof id !== 'string' || !/^[0-9a-f-]{36}$/i.test(id)) return undefined;
    return [at, id];
  } catch {
    return undefined;
  }
}

export class InvalidCursorError extends Error {}

export async function listDeliveries(
  db: Queryable,
  webhookId: string,
  query: { status?: WebhookDeliveryStatus | undefined; limit: number; cursor?: string | undefined },
): Promise<WebhookDeliveryPage> {
  const after = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
  if (query.cursor !== undefined && !after) throw new InvalidCursorError();
  const { rows } = await db.query<DeliveryRow>(
    `SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries d
      WHERE d.webhook_id = $1 AND ($2::text IS NULL OR d.status = $2)
        AND ($3::timestamptz IS NULL OR (d.created_at, d.delivery_id) < ($3::timestamptz, $4::uuid))
      ORDER BY d.created_at DESC, d.delivery_id DESC LIMIT $5`,
    [webhookId, query.status ?? null, after?.[0] ?? null, after?.[1] ?? null, query.limit + 1],
  );
  const page = rows.slice(0, query.limit);
  return {
    items: page.map(toDelivery),
    nextCursor: rows.length > query.limit ? encodeCursor(page.at(-1)!) : null,
  };
}

/**
 * Queues a delivery again as a new series of attempts, at the end of its chain (after the
 * player's deliveries still pending), under the same id.
 */
export async function requeueDelivery(
  db: Queryable,
  webhookId: string,
  deliveryId: string,
): Promise<WebhookDelivery | undefined> {
  const { rows } = await db.query<DeliveryRow>(
    `UPDATE webhook_deliveries d SET status = 'pending', attempts = 0, next_attempt_at = now(), lease_until = NULL,
            seq = nextval(pg_get_serial_sequence('webhook_deliveries', 'seq'))
      WHERE d.webhook_id = $1 AND d.delivery_id = $2 RETURNING ${DELIVERY_COLUMNS}`,
    [webhookId, deliveryId],
  );
  return rows[0] && toDelivery(rows[0]);
}

// The delivery worker's statements

export interface ClaimedDelivery {
  deliveryId: string;
  webhookId: string;
  organizationId: string;
  attempts: number;
  payload: Record<string, unknown>;
  url: string;
  secret: string;
  previousSecret: string | null;
  previousSecretExpiresAt: Date | null;
}

export interface ClaimRequest {
  /** Deliveries to lease at most (the replica's free slots). */
  limit: number;
  leaseMs: number;
  /** Slots one organization, one endpoint may hold at most. */
  perOrganization: number;
  perEndpoint: number;
  /** Slots the replica's organizations and endpoints hold now. */
  organizationsInFlight: ReadonlyMap<string, number>;
  endpointsInFlight: ReadonlyMap<string, number>;
}

/** How many due deliveries a claim considers per slot it fills (the rest wait for the next claim). */
const CANDIDATES_PER_SLOT = 16;

/**
 * Leases up to `limit` deliveries due now, each the oldest pending one of its chain, of active
 * endpoints, for `leaseMs`: another worker skips them meanwhile, and a worker that dies leaves
 * them to be sent again when the lease ends. A chain whose head waits for a retry sends nothing.
 *
 * Fair across organizations: an organization or endpoint holding its cap of the replica's slots is
 * passed over, and the slots go round the organizations with work (the organization holding the
 * fewest first, then the oldest due), so one organization's slow receivers delay only its own.
 */
export async function claimDueDeliveries(pool: Pool, request: ClaimRequest): Promise<ClaimedDelivery[]> {
  const { rows } = await pool.query<{
    delivery_id: string;
    webhook_id: string;
    organization_id: string;
    attempts: number;
    payload: Record<string, unknown>;
    url: string;
    secret: string;
    previous_secret: string | null;
    previous_secret_expires_at: Date | null;
  }>(
    `WITH org_busy AS (SELECT * FROM unnest($3::uuid[], $4::int[]) AS b(organization_id, in_flight)),
     hook_busy AS (SELECT * FROM unnest($5::uuid[], $6::int[]) AS b(webhook_id, in_flight)),
     candidate AS (
       SELECT d.delivery_id, d.webhook_id, pr.organization_id, d.next_attempt_at,
              coalesce(ob.in_flight, 0) AS org_in_flight, coalesce(hb.in_flight, 0) AS hook_in_flight
         FROM webhook_deliveries d
         JOIN webhook_endpoints e ON e.webhook_id = d.webhook_id AND e.status = 'active'
         JOIN environments v ON v.environment_id = e.environment_id
         JOIN projects pr ON pr.project_id = v.project_id
         LEFT JOIN org_busy ob ON ob.organization_id = pr.organization_id
         LEFT JOIN hook_busy hb ON hb.webhook_id = d.webhook_id
        WHERE d.status = 'pending' AND d.next_attempt_at <= now()
          AND (d.lease_until IS NULL OR d.lease_until < now())
          AND coalesce(ob.in_flight, 0) < $7 AND coalesce(hb.in_flight, 0) < $8
          AND NOT EXISTS (SELECT 1 FROM webhook_deliveries p
                           WHERE p.webhook_id = d.webhook_id AND p.order_key = d.order_key
                             AND p.status = 'pending' AND p.seq < d.seq)
        ORDER BY d.next_attempt_at LIMIT $1 * ${CANDIDATES_PER_SLOT}),
     ranked AS (
       SELECT delivery_id, organization_id, next_attempt_at,
              org_in_flight + row_number() OVER (PARTITION BY organization_id ORDER BY next_attempt_at, delivery_id) AS org_load,
              hook_in_flight + row_number() OVER (PARTITION BY webhook_id ORDER BY next_attempt_at, delivery_id) AS hook_load
         FROM candidate),
     fair AS (
       SELECT delivery_id, organization_id FROM ranked
        WHERE org_load <= $7 AND hook_load <= $8
        ORDER BY org_load, next_attempt_at LIMIT $1),
     due AS (
       SELECT d.delivery_id, fair.organization_id FROM webhook_deliveries d JOIN fair USING (delivery_id)
        WHERE d.status = 'pending' AND (d.lease_until IS NULL OR d.lease_until < now())
        FOR UPDATE OF d SKIP LOCKED)
     UPDATE webhook_deliveries d SET lease_until = now() + make_interval(secs => $2)
       FROM due, webhook_endpoints e
      WHERE d.delivery_id = due.delivery_id AND e.webhook_id = d.webhook_id
     RETURNING d.delivery_id, d.webhook_id, due.organization_id, d.attempts, d.payload, e.url, e.secret,
               e.previous_secret, e.previous_secret_expires_at`,
    [
      request.limit,
      request.leaseMs / 1000,
      [...request.organizationsInFlight.keys()],
      [...request.organizationsInFlight.values()],
      [...request.endpointsInFlight.keys()],
      [...request.endpointsInFlight.values()],
      request.perOrganization,
      request.perEndpoint,
    ],
  );
  return rows.map((row) => ({
    deliveryId: row.delivery_id,
    webhookId: row.webhook_id,
    organizationId: row.organization_id,
    attempts: row.attempts,
    payload: row.payload,
    url: row.url,
    secret: row.secret,
    previousSecret: row.previous_secret,
    previousSecretExpiresAt: row.previous_secret_expires_at,
  }));
}

export interface AttemptOutcome {
  deliveryId: string;
  webhookId: string;
  /** The attempt's number (1 for the first of the series). */
  attempt: number;
  at: Date;
  responseStatus: number | null;
  responseTimeMs: number | null;
  error: string | null;
  /** Delivered; or failed and retried at `retryAt`; or failed for good (`retryAt` null). */
  delivered: boolean;
  retryAt: Date | null;
  /** Set when a failure for good pauses the endpoint. */
  pauseReason: string | null;
}

/**
 * Records an attempt on the delivery and the endpoint's health, only while the worker still holds
 * the delivery (a replay or removal meanwhile wins). Answers whether it was recorded.
 */
export async function recordAttempt(pool: Pool, outcome: AttemptOutcome): Promise<boolean> {
  const status = outcome.delivered ? 'delivered' : outcome.retryAt ? 'pending' : 'failed';
  const { rowCount } = await pool.query(
    `WITH d AS (
       UPDATE webhook_deliveries SET status = $3, attempts = $4, last_attempt_at = $5, response_status = $6,
              response_time_ms = $7, last_error = $8, next_attempt_at = COALESCE($9, next_attempt_at),
              lease_until = NULL
        WHERE delivery_id = $1 AND webhook_id = $2 AND status = 'pending' AND attempts = $4 - 1
        RETURNING webhook_id)
     UPDATE webhook_endpoints e SET
            last_delivery_at = $5,
            last_status = CASE WHEN $3 = 'delivered' THEN 'delivered' ELSE 'failed' END,
            consecutive_failures = CASE WHEN $3 = 'delivered' THEN 0 ELSE e.consecutive_failures + 1 END,
            status = CASE WHEN $10::text IS NOT NULL THEN 'paused' ELSE e.status END,
            paused_at = CASE WHEN $10::text IS NOT NULL AND e.status = 'active' THEN now() ELSE e.paused_at END,
            paused_reason = COALESCE($10, e.paused_reason)
       FROM d WHERE e.webhook_id = d.webhook_id`,
    [
      outcome.deliveryId,
      outcome.webhookId,
      status,
      outcome.attempt,
      outcome.at,
      outcome.responseStatus,
      outcome.responseTimeMs,
      outcome.error,
      outcome.retryAt,
      outcome.pauseReason,
    ],
  );
  return (rowCount ?? 0) > 0;
}

/** Deletes finished deliveries (delivered or failed) created before `olderThanMs` ago. */
export async function deleteFinishedDeliveries(pool: Pool, olderThanMs: number): Promise<number> {
  const { rowCount } = await pool.query(
    `DELETE FROM webhook_deliveries WHERE status <> 'pending' AND created_at < now() - make_interval(secs => $1)`,
    [olderThanMs / 1000],
  );
  return rowCount ?? 0;
}
