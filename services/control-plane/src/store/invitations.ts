import type { Invitation, Role } from '@engage/contracts/http/operators.ts';
import type { Pool, PoolClient } from '@engage/postgres';

/** SQL of invitations to join an organization; a pending one is unanswered and not expired. */

type Queryable = Pool | PoolClient;
export type InvitationAnswer = 'accepted' | 'declined' | 'revoked';

interface InvitationRow {
  invitation_id: string;
  organization_id: string;
  organization_name: string;
  email: string;
  role: Role;
  created_at: Date;
  expires_at: Date;
}

const toInvitation = (row: InvitationRow): Invitation => ({
  invitationId: row.invitation_id,
  organizationId: row.organization_id,
  organizationName: row.organization_name,
  email: row.email,
  role: row.role,
  createdAtUtc: row.created_at.toISOString(),
  expiresAtUtc: row.expires_at.toISOString(),
});

const SELECT_PENDING = `
  SELECT i.invitation_id, i.organization_id, o.name AS organization_name, i.email, i.role,
         i.created_at, i.expires_at
    FROM operator_invitations i JOIN organizations o USING (organization_id)
   WHERE i.answer IS NULL AND i.expires_at > now()`;

export async function insertInvitation(
  db: PoolClient,
  input: {
    invitationId: string;
    organizationId: string;
    email: string;
    role: Role;
    tokenSha256: Buffer;
    invitedBy: string | undefined;
    ttlMs: number;
  },
): Promise<Invitation> {
  await db.query(
    `INSERT INTO operator_invitations
       (invitation_id, organization_id, email, role, token_sha256, invited_by, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, now() + $7 * interval '1 millisecond')`,
    [
      input.invitationId,
      input.organizationId,
      input.email,
      input.role,
      input.tokenSha256,
      input.invitedBy ?? null,
      input.ttlMs,
    ],
  );
  const { rows } = await db.query<InvitationRow>(`${SELECT_PENDING} AND i.invitation_id = $1`, [
    input.invitationId,
  ]);
  return toInvitation(rows[0]!);
}

/** Revokes the organization's pending invitations of the email (a new one replaces them); answers their ids. */
export async function revokePendingInvitationsOf(
  db: PoolClient,
  organizationId: string,
  email: string,
): Promise<string[]> {
  const { rows } = await db.query<{ invitation_id: string }>(
    `UPDATE operator_invitations SET answer = 'revoked', answered_at = now()
      WHERE organization_id = $1 AND email = $2 AND answer IS NULL
      RETURNING invitation_id`,
    [organizationId, email],
  );
  return rows.map((row) => row.invitation_id);
}

export async function listOrganizationInvitations(
  db: Queryable,
  organizationId: string,
): Promise<Invitation[]> {
  const { rows } = await db.query<InvitationRow>(
    `${SELECT_PENDING} AND i.organization_id = $1 ORDER BY i.created_at, i.invitation_id`,
    [organizationId],
  );
  return rows.map(toInvitation);
}

export async function listInvitationsOfEmail(db: Queryable, email: string): Promise<Invitation[]> {
  const { rows } = await db.query<InvitationRow>(
    `${SELECT_PENDING} AND i.email = $1 ORDER BY i.created_at, i.invitation_id`,
    [email],
  );
  return rows.map(toInvitation);
}

/** The pending invitation, its row locked until the transaction ends; undefined when none matches. */
export async function findPendingInvitationForUpdate(
  db: PoolClient,
  by: { invitationId: string; email?: string; organizationId?: string } | { tokenSha256: Buffer },
): Promise<Invitation | undefined> {
  const { rows } =
    'tokenSha256' in by
      ? await db.query<InvitationRow>(`${SELECT_PENDING} AND i.token_sha256 = $1 FOR UPDATE OF i`, [
          by.tokenSha256,
        ])
      : await db.query<InvitationRow>(
          `${SELECT_PENDING} AND i.invitation_id = $1
              AND ($2::text IS NULL OR i.email = $2) AND ($3::uuid IS NULL OR i.organization_id = $3)
           FOR UPDATE OF i`,
          [by.invitationId, by.email ?? null, by.organizationId ?? null],
        );
  return rows[0] && toInvitation(rows[0]);
}

/** The invitation's email, when a pending one has the token (read without a lock, before the transaction). */
export async function findPendingInvitationEmail(
  db: Queryable,
  tokenSha256: Buffer,
): Promise<string | undefined> {
  const { rows } = await db.query<{ email: string }>(`${SELECT_PENDING} AND i.token_sha256 = $1`, [
    tokenSha256,
  ]);
  return rows[0]?.email;
}

export async function answerInvitation(db: PoolClient, invitationId: string, answer: InvitationAnswer) {
  await db.query(
    'UPDATE operator_invitations SET answer = $2, answered_at = now() WHERE invitation_id = $1',
    [invitationId, answer],
  );
}
