import { randomUUID } from 'node:crypto';
import type { Membership, Operator, Role } from '@engage/contracts/http/operators.ts';
import type { Pool, PoolClient } from '@engage/postgres';

/** SQL of operators: accounts, their memberships in organizations, and their sessions. */

type Queryable = Pool | PoolClient;

export interface OperatorAccount {
  operatorId: string;
  email: string;
  displayName: string;
  passwordHash: string;
}

export async function findOperatorByEmail(
  db: Queryable,
  email: string,
): Promise<OperatorAccount | undefined> {
  const { rows } = await db.query<{
    operator_id: string;
    email: string;
    display_name: string;
    password_hash: string;
  }>('SELECT operator_id, email, display_name, password_hash FROM operators WHERE email = $1', [email]);
  const row = rows[0];
  return (
    row && {
      operatorId: row.operator_id,
      email: row.email,
      displayName: row.display_name,
      passwordHash: row.password_hash,
    }
  );
}

/** Creates the account; undefined when the email already has one. */
export async function insertOperator(
  db: Queryable,
  input: { email: string; displayName: string; passwordHash: string },
): Promise<string | undefined> {
  const operatorId = randomUUID();
  const { rowCount } = await db.query(
    `INSERT INTO operators (operator_id, email, display_name, password_hash) VALUES ($1, $2, $3, $4)
     ON CONFLICT (email) DO NOTHING`,
    [operatorId, input.email, input.displayName, input.passwordHash],
  );
  return rowCount === 1 ? operatorId : undefined;
}

export async function listMemberships(db: Queryable, operatorId: string): Promise<Membership[]> {
  const { rows } = await db.query<{ organization_id: string; name: string; role: Role }>(
    `SELECT m.organization_id, o.name, m.role
       FROM memberships m JOIN organizations o USING (organization_id)
      WHERE m.operator_id = $1
      ORDER BY o.created_at, m.organization_id`,
    [operatorId],
  );
  return rows.map((row) => ({
    organizationId: row.organization_id,
    organizationName: row.name,
    role: row.role,
  }));
}

export async function findRole(
  db: Queryable,
  operatorId: string,
  organizationId: string,
): Promise<Role | undefined> {
  const { rows } = await db.query<{ role: Role }>(
    'SELECT role FROM memberships WHERE operator_id = $1 AND organization_id = $2',
    [operatorId, organizationId],
  );
  return rows[0]?.role;
}

interface OperatorRow {
  operator_id: string;
  email: string;
  display_name: string;
  role: Role;
  created_at: Date;
}

const toOperator = (row: OperatorRow): Operator => ({
  operatorId: row.operator_id,
  email: row.email,
  displayName: row.display_name,
  role: row.role,
  createdAtUtc: row.created_at.toISOString(),
});

const OPERATOR_COLUMNS = 'o.operator_id, o.email, o.display_name, m.role, m.created_at';

export async function listOrganizationOperators(db: Queryable, organizationId: string): Promise<Operator[]> {
  const { rows } = await db.query<OperatorRow>(
    `SELECT ${OPERATOR_COLUMNS} FROM memberships m JOIN operators o USING (operator_id)
      WHERE m.organization_id = $1 ORDER BY m.created_at, o.operator_id`,
    [organizationId],
  );
  return rows.map(toOperator);
}

/** The member with its row locked until the transaction ends (undefined: not a member). */
export async function findMemberForUpdate(
  db: PoolClient,
  organizationId: string,
  operatorId: string,
): Promise<Operator | undefined> {
  const { rows } = await db.query<OperatorRow>(
    `SELECT ${OPERATOR_COLUMNS} FROM memberships m JOIN operators o USING (operator_id)
      WHERE m.organization_id = $1 AND m.operator_id = $2 FOR UPDATE OF m`,
    [organizationId, operatorId],
  );
  return rows[0] && toOperator(rows[0]);
}

export async function isMemberByEmail(
  db: Queryable,
  organizationId: string,
  email: string,
): Promise<boolean> {
  const { rowCount } = await db.query(
    `SELECT 1 FROM memberships m JOIN operators o USING (operator_id)
      WHERE m.organization_id = $1 AND o.email = $2`,
    [organizationId, email],
  );
  return rowCount === 1;
}

/** Inserts a membership; false when the operator already is a member. */
export async function insertMembership(
  db: Queryable,
  organizationId: string,
  operatorId: string,
  role: Role,
): Promise<boolean> {
  const { rowCount } = await db.query(
    `INSERT INTO memberships (organization_id, operator_id, role) VALUES ($1, $2, $3)
     ON CONFLICT DO NOTHING`,
    [organizationId, operatorId, role],
  );
  return rowCount === 1;
}

export async function updateMembershipRole(
  db: Queryable,
  organizationId: string,
  operatorId: string,
  role: Role,
): Promise<void> {
  await db.query('UPDATE memberships SET role = $3 WHERE organization_id = $1 AND operator_id = $2', [
    organizationId,
    operatorId,
    role,
  ]);
}

export async function deleteMembership(db: Queryable, organizationId: string, operatorId: string) {
  await db.query('DELETE FROM memberships WHERE organization_id = $1 AND operator_id = $2', [
    organizationId,
    operatorId,
  ]);
}

/** Locks the organization's owners (so two removals cannot leave none) and counts them. */
export async function lockOwners(db: PoolClient, organizationId: string): Promise<number> {
  const { rows } = await db.query(
    `SELECT operator_id FROM memberships WHERE organization_id = $1 AND role = 'owner' FOR UPDATE`,
    [organizationId],
  );
  return rows.length;
}

export interface StoredSession {
  operatorId: string;
  email: string;
  displayName: string;
  csrfToken: string;
}

export async function insertSession(
  db: Queryable,
  input: { sessionSha256: Buffer; operatorId: string; csrfToken: string; absoluteTimeoutMs: number },
): Promise<void> {
  await db.query(
    `INSERT INTO operator_sessions (session_sha256, operator_id, csrf_token, expires_at)
     VALUES ($1, $2, $3, now() + $4 * interval '1 millisecond')`,
    [input.sessionSha256, input.operatorId, input.csrfToken, input.absoluteTimeoutMs],
  );
}

/**
 * The session if neither its absolute expiry nor its idle timeout has passed, marking it used now;
 * an expired one is deleted.
 */
export async function touchSession(
  db: Queryable,
  sessionSha256: Buffer,
  idleTimeoutMs: number,
): Promise<StoredSession | undefined> {
  const { rows } = await db.query<{
    operator_id: string;
    email: string;
    display_name: string;
    csrf_token: string;
    live: boolean;
  }>(
    `WITH found AS (
       SELECT s.session_sha256,
              s.expires_at > now() AND s.last_seen_at + $2 * interval '1 millisecond' > now() AS live
         FROM operator_sessions s WHERE s.session_sha256 = $1
     ), touched AS (
       UPDATE operator_sessions s SET last_seen_at = now()
         FROM found WHERE s.session_sha256 = found.session_sha256 AND found.live
     ), expired AS (
       DELETE FROM operator_sessions s
        USING found WHERE s.session_sha256 = found.session_sha256 AND NOT found.live
     )
     SELECT s.operator_id, o.email, o.display_name, s.csrf_token, found.live
       FROM found JOIN operator_sessions s USING (session_sha256) JOIN operators o USING (operator_id)`,
    [sessionSha256, idleTimeoutMs],
  );
  const row = rows[0];
  if (!row?.live) return undefined;
  return {
    operatorId: row.operator_id,
    email: row.email,
    displayName: row.display_name,
    csrfToken: row.csrf_token,
  };
}

export async function deleteSession(db: Queryable, sessionSha256: Buffer): Promise<void> {
  await db.query('DELETE FROM operator_sessions WHERE session_sha256 = $1', [sessionSha256]);
}

/** Drops every session past its absolute expiry or unused for the idle timeout. */
export async function deleteExpiredSessions(db: Queryable, idleTimeoutMs: number): Promise<number> {
  const { rowCount } = await db.query(
    `DELETE FROM operator_sessions
      WHERE expires_at <= now() OR last_seen_at + $1 * interval '1 millisecond' <= now()`,
    [idleTimeoutMs],
  );
  return rowCount ?? 0;
}
