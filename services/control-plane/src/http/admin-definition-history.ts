import { AuditLogPageSchema, ListDefinitionHistoryQuerySchema } from '@engage/contracts/http/operators.ts';
import type { HttpApp } from '@engage/kit';
import type { Pool } from '@engage/postgres';
import { z } from 'zod';
import { listAuditEntries } from '../store/audit-log.ts';
import { callerOf } from './admin-access.ts';

const environmentParams = z.object({ environmentId: z.uuid() });

/**
 * An environment's applied versions, newest first: the audit entries that changed its file, with
 * who, when and the difference. Readable by whoever reads the file (the audit log itself is the
 * admins'), since a file's history holds nothing the file does not.
 */
export function definitionHistoryRoutes(scope: HttpApp, deps: { pool: Pool }): void {
  scope.get(
    '/environments/:environmentId/definition/history',
    {
      schema: {
        params: environmentParams,
        querystring: ListDefinitionHistoryQuerySchema,
        response: { 200: AuditLogPageSchema },
      },
    },
    async (request) =>
      listAuditEntries(
        deps.pool,
        {
          // Resolved from the environment by the access check, which answered 404 for an unknown one.
          organizationId: callerOf(request).organizationId!,
          environmentId: request.params.environmentId,
          withDifference: true,
        },
        { ...request.query, order: 'newest' },
      ),
  );
}
