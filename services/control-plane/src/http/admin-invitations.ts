import {
  AcceptInvitationSchema,
  CreatedInvitationSchema,
  CreateInvitationSchema,
  InvitationListSchema,
  MembershipSchema,
} from '@engage/contracts/http/operators.ts';
import { type HttpApp, notFound } from '@engage/kit';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  acceptInvitation,
  acceptInvitationWithToken,
  declineInvitation,
  type InvitationDeps,
  type Invitee,
  inviteOperator,
  revokeInvitation,
} from '../application/invitations.ts';
import { listInvitationsOfEmail, listOrganizationInvitations } from '../store/invitations.ts';
import { adminRouteOf, callerOf } from './admin-access.ts';
import { writeOrigin } from './admin-operators.ts';

const organizationParams = z.object({ organizationId: z.uuid() });
const organizationInvitationParams = z.object({ organizationId: z.uuid(), invitationId: z.uuid() });
const invitationParams = z.object({ invitationId: z.uuid() });

/**
 * Invitations to an organization (access: ADMIN_ROUTE_RULES): owners invite, list and revoke; the
 * invitee lists, accepts and declines signed in, or accepts with the token.
 */
export function invitationRoutes(scope: HttpApp, deps: InvitationDeps): void {
  const { pool } = deps;

  scope.post(
    '/organizations/:organizationId/invitations',
    {
      schema: {
        params: organizationParams,
        body: CreateInvitationSchema,
        response: { 201: CreatedInvitationSchema },
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(await inviteOperator(deps, writeOrigin(request), request.params.organizationId, request.body)),
  );

  scope.get(
    '/organizations/:organizationId/invitations',
    { schema: { params: organizationParams, response: { 200: InvitationListSchema } } },
    async (request) => ({
      invitations: await listOrganizationInvitations(pool, request.params.organizationId),
    }),
  );

  scope.delete(
    '/organizations/:organizationId/invitations/:invitationId',
    { schema: { params: organizationInvitationParams } },
    async (request, reply) => {
      const { organizationId, invitationId } = request.params;
      await revokeInvitation(pool, writeOrigin(request), organizationId, invitationId);
      return reply.code(204).send();
    },
  );

  scope.get('/invitations', { schema: { response: { 200: InvitationListSchema } } }, async (request) => {
    const { actor } = callerOf(request);
    // The admin token has no email: nothing is addressed to it.
    return { invitations: actor.kind === 'operator' ? await listInvitationsOfEmail(pool, actor.email) : [] };
  });

  scope.post(
    '/invitations/:invitationId/accept',
    { schema: { params: invitationParams, response: { 200: MembershipSchema } } },
    async (request) =>
      acceptInvitation(pool, writeOrigin(request), inviteeOf(request), request.params.invitationId),
  );

  scope.post(
    '/invitations/:invitationId/decline',
    { schema: { params: invitationParams } },
    async (request, reply) => {
      await declineInvitation(pool, writeOrigin(request), inviteeOf(request), request.params.invitationId);
      return reply.code(204).send();
    },
  );

  scope.post(
    '/invitations/accept',
    { schema: { body: AcceptInvitationSchema, response: { 200: MembershipSchema } } },
    async (request) =>
      acceptInvitationWithToken(
        deps,
        { method: request.method, route: adminRouteOf(request), address: request.ip },
        request.body,
      ),
  );
}

/** The signed-in operator; the admin token is no invitee. */
function inviteeOf(request: FastifyRequest): Invitee {
  const { actor } = callerOf(request);
  if (actor.kind !== 'operator') throw notFound('invitation.not_found');
  return { operatorId: actor.operatorId, email: actor.email };
}
