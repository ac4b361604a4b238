import { PlayerQuerySchema, PointsBalanceSchema } from '@engage/contracts';
import { environmentOf, type HttpApp, playerOf } from '@engage/kit';
import { adjustPoints, type PointsDeps } from '../application/adjust-points.ts';
import { pointsBalance } from '../application/points-balance.ts';
import { parseAdjustmentRequest } from '../domain/adjustment-request.ts';
import { problemRenderer, sendOutcome } from './replies.ts';

/** Endpoints 8 (read a balance) and 9 (adjust it by hand). */
export function pointsRoutes(app: HttpApp, deps: PointsDeps) {
  app.get(
    '/v1/points',
    { schema: { querystring: PlayerQuerySchema, response: { 200: PointsBalanceSchema } } },
    async (request) => pointsBalance(deps.pool, environmentOf(request).environmentId, request.query.PlayerId),
  );

  // The body is validated here, not by a route schema, so the contract's own codes (amount_zero,
  // reason_too_long) are listed together with every other refused field.
  app.post('/v1/points/adjustments', async (request, reply) => {
    const adjustment = parseAdjustmentRequest(request.body);
    const environment = environmentOf(request);
    // Only for a player the gateway resolved (it forwards a refused player id for validation only).
    playerOf(request);
    const outcome = await adjustPoints(deps, {
      environment,
      request: adjustment,
      render: problemRenderer(request),
    });
    return sendOutcome(reply, outcome);
  });
}
