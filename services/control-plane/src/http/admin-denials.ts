import { type HttpApp, Problem } from '@engage/kit';
import type { Pool } from '@engage/postgres';
import { recordChange } from '../application/audited.ts';
import { isWrite } from '../domain/roles.ts';
import { adminRouteOf } from './admin-access.ts';

/** Refusals for lack of permission: no credential or a wrong one, a missing CSRF token, a role short of the rule. */
const PERMISSION_REFUSALS = new Set(['admin.unauthorized', 'admin.csrf_failed', 'admin.forbidden']);

/**
 * Admin writes refused for lack of permission leave a trace: a warn log line for each, and a
 * `denied` entry in the audit log of the organization the route names when the caller is known.
 * A caller without a valid credential gets the log line only: recording it would let anyone fill
 * any organization's audit log.
 */
export function recordDeniedWrites(scope: HttpApp, deps: { pool: Pool }): void {
  scope.addHook('onError', async (request, _reply, error) => {
    if (!isWrite(request.method) || !(error instanceof Problem) || !PERMISSION_REFUSALS.has(error.code)) {
      return;
    }
    const caller = request.adminCaller;
    const origin = { method: request.method, route: adminRouteOf(request) };
    request.log.warn(
      { ...origin, code: error.code, actor: caller?.actor, organizationId: caller?.organizationId },
      'admin write denied',
    );
    if (!caller?.organizationId) return;
    try {
      await recordChange(
        deps.pool,
        { ...origin, actor: caller.actor },
        {
          organizationId: caller.organizationId,
          targets: request.params as Record<string, string>,
          denied: { refusal: error.code },
        },
      );
    } catch (err) {
      // The refusal is answered all the same; only its trace in the audit log is lost.
      request.log.error({ err }, 'recording a denied admin write failed');
    }
  });
}
