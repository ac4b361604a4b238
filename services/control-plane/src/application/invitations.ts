import { createHash, randomBytes } from 'node:crypto';
import type {
  CreatedInvitation,
  CreateInvitation,
  Invitation,
  Membership,
} from '@engage/contracts/http/operators.ts';
import { conflict, notFound, problem } from '@engage/kit';
import { type Pool, type PoolClient, withTransaction } from '@engage/postgres';
import { hashPassword, verifyPassword } from '../domain/password.ts';
import { passwordWeakness } from '../domain/password-policy.ts';
import type { Actor } from '../store/audit-log.ts';
import {
  answerInvitation,
  findPendingInvitationEmail,
  findPendingInvitationForUpdate,
  insertInvitation,
  revokePendingInvitationsOf,
} from '../store/invitations.ts';
import {
  findMemberForUpdate,
  findOperatorByEmail,
  insertMembership,
  insertOperator,
  isMemberByEmail,
} from '../store/operators.ts';
import type { SignInThrottle } from '../store/sign-in-failures.ts';
import { audited, recordChange, type WriteOrigin } from './audited.ts';
import { signInFailed, tooManyAttempts } from './sessions.ts';

/**
 * Invitations: the only way into an organization. An owner invites an email with a role and gets the
 * same answer whether or not an account has it; the invitee accepts (or declines) signed in, or
 * accepts with the token, proving the account's password or setting a new account's.
 */

export interface InvitationDeps {
  pool: Pool;
  throttle: SignInThrottle;
  /** How long an invitation may be accepted. */
  ttlMs: number;
}

/** The signed-in operator answering an invitation addressed to their email. */
export interface Invitee {
  operatorId: string;
  email: string;
}

const invitationNotFound = () => notFound('invitation.not_found');
const alreadyMember = () =>
  conflict('operator.already_member', 'That operator is already a member of the organization.');

export function inviteOperator(
  deps: InvitationDeps,
  origin: WriteOrigin,
  organizationId: string,
  input: CreateInvitation & { email: string },
): Promise<CreatedInvitation> {
  const token = randomBytes(32).toString('base64url');
  return audited(deps.pool, origin, async (client) => {
    // Members are listed to the owner anyway: saying so tells nothing about other accounts.
    if (await isMemberByEmail(client, organizationId, input.email)) throw alreadyMember();
    await revokePendingInvitationsOf(client, organizationId, input.email);
    const invitation = await insertInvitation(client, {
      invitationId: crypto.randomUUID(),
      organizationId,
      email: input.email,
      role: input.role,
      tokenSha256: tokenDigest(token),
      invitedBy: origin.actor.kind === 'operator' ? origin.actor.operatorId : undefined,
      ttlMs: deps.ttlMs,
    });
    return {
      result: { ...invitation, token },
      change: {
        organizationId,
        targets: { organizationId, invitationId: invitation.invitationId },
        after: invitation,
      },
    };
  });
}

export function revokeInvitation(
  pool: Pool,
  origin: WriteOrigin,
  organizationId: string,
  invitationId: string,
): Promise<void> {
  return audited(pool, origin, async (client) => {
    const before = await findPendingInvitationForUpdate(client, { invitationId, organizationId });
    if (!before) throw invitationNotFound();
    await answerInvitation(client, invitationId, 'revoked');
    return {
      result: undefined,
      change: { organizationId, targets: { organizationId, invitationId }, before },
    };
  });
}

export function acceptInvitation(
  pool: Pool,
  origin: WriteOrigin,
  invitee: Invitee,
  invitationId: string,
): Promise<Membership> {
  return withTransaction(pool, async (client) => {
    const invitation = await findPendingInvitationForUpdate(client, { invitationId, email: invitee.email });
    if (!invitation) throw invitationNotFound();
    return join(client, origin, invitation, invitee.operatorId);
  });
}

export function declineInvitation(
  pool: Pool,
  origin: WriteOrigin,
  invitee: Invitee,
  invitationId: string,
): Promise<void> {
  return audited(pool, origin, async (client) => {
    const before = await findPendingInvitationForUpdate(client, { invitationId, email: invitee.email });
    if (!before) throw invitationNotFound();
    await answerInvitation(client, invitationId, 'declined');
    const { organizationId } = before;
    return {
      result: undefined,
      change: { organizationId, targets: { organizationId, invitationId }, before },
    };
  });
}

/**
 * Accepts by token, without a session. When the invited email has an account, its password must
 * match (a wrong one is a failed sign-in, throttled as sign-in is); else the password and name
 * given create the account.
 */
export async function acceptInvitationWithToken(
  deps: InvitationDeps,
  request: { method: string; route: string; address: string },
  input: { token: string; password: string; displayName?: string | undefined },
): Promise<Membership> {
  const tokenSha256 = tokenDigest(input.token);
  const email = await findPendingInvitationEmail(deps.pool, tokenSha256);
  if (!email) throw invitationNotFound();
  const account = await findOperatorByEmail(deps.pool, email);
  let newAccountHash: string | undefined;
  if (account) {
    const started = await deps.throttle.start(email, request.address);
    if (!started.allowed) throw tooManyAttempts(started.retryAfterSeconds);
    if (!(await verifyPassword(input.password, account.passwordHash))) throw signInFailed();
    await deps.throttle.succeeded(started.attempt);
  } else {
    refuseWeakPassword(input.password, email);
    newAccountHash = await hashPassword(input.password);
  }

  return withTransaction(deps.pool, async (client) => {
    const invitation = await findPendingInvitationForUpdate(client, { tokenSha256 });
    if (!invitation) throw invitationNotFound();
    const operatorId =
      account?.operatorId ??
      (await insertOperator(client, {
        email,
        displayName: input.displayName ?? email,
        passwordHash: newAccountHash!,
      }));
    // Another invitation of the email created its account meanwhile: this password was not checked against it.
    if (!operatorId) throw conflict('invitation.concurrent_update');
    const actor: Actor = { kind: 'operator', operatorId, email };
    return join(client, { actor, method: request.method, route: request.route }, invitation, operatorId);
  });
}

/** Makes the invitee a member with the invited role, answers the invitation and records both. */
async function join(
  client: PoolClient,
  origin: WriteOrigin,
  invitation: Invitation,
  operatorId: string,
): Promise<Membership> {
  const { organizationId, invitationId, role } = invitation;
  if (!(await insertMembership(client, organizationId, operatorId, role))) throw alreadyMember();
  await answerInvitation(client, invitationId, 'accepted');
  const after = await findMemberForUpdate(client, organizationId, operatorId);
  await recordChange(client, origin, {
    organizationId,
    targets: { organizationId, operatorId, invitationId },
    before: invitation,
    after,
  });
  return { organizationId, organizationName: invitation.organizationName, role };
}

/** Refuses a password an account may not have, with the reason's own code. */
function refuseWeakPassword(password: string, email: string): void {
  const weakness = passwordWeakness(password, email);
  if (weakness) throw problem(`operator.password_${weakness}`);
}

const tokenDigest = (token: string) => createHash('sha256').update(token).digest();
