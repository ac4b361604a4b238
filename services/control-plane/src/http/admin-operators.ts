import {
  AuditLogPageSchema,
  ListAuditLogQuerySchema,
  OperatorSchema,
  UpdateOperatorSchema,
} from '@engage/contracts/http/operators.ts';
import type { HttpApp } from '@engage/kit';
import type { Pool } from '@engage/postgres';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { WriteOrigin } from '../application/audited.ts';
import { changeOperatorRole, removeOperator } from '../application/operators.ts';
import { listAuditEntries } from '../store/audit-log.ts';
import { listOrganizationOperators } from '../store/operators.ts';
import { adminRouteOf, callerOf } from './admin-access.ts';

const organizationParams = z.object({ organizationId: z.uuid() });
const memberParams = z.object({ organizationId: z.uuid(), operatorId: z.uuid() });

/** An organization's operators and its audit log (access: ADMIN_ROUTE_RULES); they join by invitation. */
export function operatorRoutes(scope: HttpApp, deps: { pool: Pool }): void {
  const { pool } = deps;

  scope.get(
    '/organizations/:organizationId/operators',
    {
      schema: {
        params: organizationParams,
        response: { 200: z.object({ operators: z.array(OperatorSchema) }) },
      },
    },
    async (request) => ({ operators: await listOrganizationOperators(pool, request.params.organizationId) }),
  );

  scope.patch(
    '/organizations/:organizationId/operators/:operatorId',
    { schema: { params: memberParams, body: UpdateOperatorSchema, response: { 200: OperatorSchema } } },
    async (request) => {
      const { organizationId, operatorId } = request.params;
      return changeOperatorRole(pool, writeOrigin(request), organizationId, operatorId, request.body.role);
    },
  );

  scope.delete(
    '/organizations/:organizationId/operators/:operatorId',
    { schema: { params: memberParams } },
    async (request, reply) => {
      const { organizationId, operatorId } = request.params;
      await removeOperator(pool, writeOrigin(request), organizationId, operatorId);
      return reply.code(204).send();
    },
  );

  scope.get(
    '/organizations/:organizationId/audit-log',
    {
      schema: {
        params: organizationParams,
        querystring: ListAuditLogQuerySchema,
        response: { 200: AuditLogPageSchema },
      },
    },
    async (request) => {
      const { limit, after, order, ...filter } = request.query;
      return listAuditEntries(
        pool,
        { organizationId: request.params.organizationId, ...filter },
        { limit, after, order },
      );
    },
  );
}

/** Who makes this write and by which route, for the audit log. */
export function writeOrigin(request: FastifyRequest): WriteOrigin {
  return { actor: callerOf(request).actor, method: request.method, route: adminRouteOf(request) };
}
