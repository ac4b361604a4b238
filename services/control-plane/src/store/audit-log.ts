import { randomUUID } from 'node:crypto';
import type { AuditEntry, AuditLogPage } from '@engage/contracts/http/operators.ts';
import type { Pool, PoolClient } from '@engage/postgres';

/** SQL of the audit log: one row per write made through the admin API, or refused for lack of permission. */

export type Actor = { kind: 'admin-token' } | { kind: 'operator'; operatorId: string; email: string };

export interface AuditRecord {
  organizationId: string;
  actor: Actor;
  method: string;
  route: string;
  targets: Record<string, string>;
  before?: unknown;
  after?: unknown;
  difference?: unknown;
  /** Records the change once per organization and key, however often it is recorded (a retried write). */
  onceKey?: string;
  /** A write refused for lack of permission, with the refusal's problem code (absent: made). */
  denied?: { refusal: string };
}

/** Answers the new entry's auditId (with an `onceKey` already recorded, nothing is written). */
export async function insertAuditEntry(db: Pool | PoolClient, record: AuditRecord): Promise<string> {
  const auditId = randomUUID();
  const json = (value: unknown) => (value === undefined || value === null ? null : JSON.stringify(value));
  await db.query(
    `INSERT INTO audit_log (audit_id, organization_id, actor_kind, operator_id, operator_email, method,
                            route, targets, before, after, difference, once_key, outcome, refusal)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)
     ON CONFLICT (organization_id, once_key) WHERE once_key IS NOT NULL DO NOTHING`,
    [
      auditId,
      record.organizationId,
      record.actor.kind,
      record.actor.kind === 'operator' ? record.actor.operatorId : null,
      record.actor.kind === 'operator' ? record.actor.email : null,
      record.method,
      record.route,
      JSON.stringify(record.targets),
      json(record.before),
      json(record.after),
      json(record.difference),
      record.onceKey ?? null,
      record.denied ? 'denied' : 'allowed',
      record.denied?.refusal ?? null,
    ],
  );
  return auditId;
}

interface AuditRow {
  audit_id: string;
  at: Date;
  actor_kind: 'operator' | 'admin-token';
  operator_id: string | null;
  operator_email: string | null;
  method: string;
  route: string;
  targets: Record<string, string>;
  before: unknown;
  after: unknown;
  difference: unknown;
  outcome: 'allowed' | 'denied';
  refusal: string | null;
}

const toEntry = (row: AuditRow): AuditEntry => ({
  auditId: row.audit_id,
  atUtc: row.at.toISOString(),
  actor: { kind: row.actor_kind, operatorId: row.operator_id, email: row.operator_email },
  method: row.method,
  route: row.route,
  targets: row.targets,
  before: row.before,
  after: row.after,
  difference: row.difference,
  outcome: row.outcome,
  refusal: row.refusal,
});

export interface AuditLogFilter {
  organizationId: string;
  /** Only the entries whose targets name this environment. */
  environmentId?: string | undefined;
  /** Only the entries that carry a difference (environment file applies). */
  withDifference?: boolean;
  /** Only the writes of the operator with this (lower-case) email. */
  operatorEmail?: string | undefined;
  /** Only the writes whose route contains this text. */
  route?: string | undefined;
  /** Only the writes made at this time or later (ISO 8601). */
  from?: string | undefined;
  /** Only the writes made before this time (ISO 8601). */
  to?: string | undefined;
}

export interface AuditLogPageRequest {
  limit: number;
  /** The last entry of the previous page. */
  after?: string | undefined;
  order: 'oldest' | 'newest';
}

/** One page of an organization's audit log in the order asked; `after` is the last entry of the previous page. */
export async function listAuditEntries(
  db: Pool,
  filter: AuditLogFilter,
  page: AuditLogPageRequest,
): Promise<AuditLogPage> {
  // Fixed texts chosen by the order, never built from input.
  const [beyond, direction] = page.order === 'newest' ? ['<', 'DESC'] : ['>', 'ASC'];
  const { rows } = await db.query<AuditRow>(
    `SELECT * FROM audit_log
      WHERE organization_id = $1
        AND ($3::uuid IS NULL
             OR (at, audit_id) ${beyond} (SELECT at, audit_id FROM audit_log WHERE audit_id = $3))
        AND ($4::text IS NULL OR targets->>'environmentId' = $4)
        AND (NOT $5::boolean OR difference IS NOT NULL)
        AND ($6::text IS NULL OR operator_email = $6)
        AND ($7::text IS NULL OR strpos(route, $7) > 0)
        AND ($8::timestamptz IS NULL OR at >= $8)
        AND ($9::timestamptz IS NULL OR at < $9)
      ORDER BY at ${direction}, audit_id ${direction}
      LIMIT $2`,
    [
      filter.organizationId,
      page.limit + 1,
      page.after ?? null,
      filter.environmentId ?? null,
      filter.withDifference ?? false,
      filter.operatorEmail ?? null,
      filter.route ?? null,
      filter.from ?? null,
      filter.to ?? null,
    ],
  );
  const entries = rows.slice(0, page.limit).map(toEntry);
  return { entries, nextCursor: rows.length > page.limit ? entries.at(-1)!.auditId : null };
}
