import type { Operator, Role } from '@engage/contracts/http/operators.ts';
import { conflict, notFound } from '@engage/kit';
import type { Pool, PoolClient } from '@engage/postgres';
import {
  deleteMembership,
  findMemberForUpdate,
  lockOwners,
  updateMembershipRole,
} from '../store/operators.ts';
import { audited, type WriteOrigin } from './audited.ts';

/** An organization's operators: changing a role, removing one (they join by invitation: invitations.ts). */

const operatorNotFound = () =>
  notFound('operator.not_found', 'No operator with that id in the organization.');
const lastOwner = () =>
  conflict(
    'operator.last_owner',
    'An organization keeps at least one owner: make another operator owner first.',
  );

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
