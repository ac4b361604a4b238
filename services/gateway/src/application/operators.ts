import type { CreateOperator, Operator, Role } from '@engage/contracts/http/operators.ts';
import { conflict, notFound, problem } from '@engage/kit';
import type { Pool, PoolClient } from '@engage/postgres';
import { hashPassword } from '../domain/password.ts';
import { passwordWeakness } from '../domain/password-policy.ts';
import {
  deleteMembership,
  findMemberForUpdate,
  findOperatorByEmail,
  insertMembership,
  insertOperator,
  lockOwners,
  updateMembershipRole,
} from '../store/operators.ts';
import { audited, type WriteOrigin } from './audited.ts';

/** An organization's operators: adding one (a new account or an existing one), changing a role, removing one. */

const operatorNotFound = () =>
  notFound('operator.not_found', 'No operator with that id in the organization.');
const alreadyMember = () =>
  conflict('operator.already_member', 'That operator is already a member of the organization.');
const lastOwner = () =>
  conflict(
    'operator.last_owner',
    'An organization keeps at least one owner: make another operator owner first.',
  );
const passwordRequired = () =>
  problem('operator.password_required', 'No operator has that email: a password creates the account.');

/** Refuses a password an account may not have, with the reason's own code. */
export function refuseWeakPassword(password: string, email: string): void {
  const weakness = passwordWeakness(password, email);
  if (weakness) throw problem(`operator.password_${weakness}`);
}

export async function addOperator(
  pool: Pool,
  origin: WriteOrigin,
  organizationId: string,
  input: CreateOperator & { email: string },
): Promise<Operator> {
  if (input.password !== undefined) refuseWeakPassword(input.password, input.email);
  // Hashed before the transaction: scrypt takes a while and holds no lock.
  const passwordHash = input.password === undefined ? undefined : await hashPassword(input.password);
  return audited(pool, origin, async (client) => {
    const existing = await findOperatorByEmail(client, input.email);
    if (!existing && !passwordHash) throw passwordRequired();
    const operatorId =
      existing?.operatorId ??
      (await insertOperator(client, {
        email: input.email,
        displayName: input.displayName ?? input.email,
        passwordHash: passwordHash!,
      }));
    if (!(await insertMembership(client, organizationId, operatorId, input.role))) throw alreadyMember();
    const operator = (await findMemberForUpdate(client, organizationId, operatorId))!;
    return {
      result: operator,
      change: { organizationId, targets: { organizationId, operatorId }, after: operator },
    };
  });
}

export function changeOperatorRole(
  pool: Pool,
  origin: WriteOrigin,
  organizationId: string,
  operatorId: string,
  role: Role,
): Promise<Operator> {
  return audited(pool, origin, async (client) => {
    const before = await memberKeepingAnOwner(client, organizationId, operatorId, role);
    await updateMembershipRole(client, organizationId, operatorId, role);
    const after = { ...before, role };
    return {
      result: after,
      change: { organizationId, targets: { organizationId, operatorId }, before, after },
    };
  });
}

export function removeOperator(
  pool: Pool,
  origin: WriteOrigin,
  organizationId: string,
  operatorId: string,
): Promise<void> {
  return audited(pool, origin, async (client) => {
    const before = await memberKeepingAnOwner(client, organizationId, operatorId, undefined);
    await deleteMembership(client, organizationId, operatorId);
    return { result: undefined, change: { organizationId, targets: { organizationId, operatorId }, before } };
  });
}

/** The member, locked, refusing a change that would leave the organization without an owner. */
async function memberKeepingAnOwner(
  client: PoolClient,
  organizationId: string,
  operatorId: string,
  nextRole: Role | undefined,
): Promise<Operator> {
  const owners = await lockOwners(client, organizationId);
  const member = await findMemberForUpdate(client, organizationId, operatorId);
  if (!member) throw operatorNotFound();
  if (member.role === 'owner' && nextRole !== 'owner' && owners <= 1) throw lastOwner();
  return member;
}
