import { IDEMPOTENT_REPLAYED_HEADER, PROBLEM_MEDIA_TYPE } from '@engage/contracts';
import { currentTraceId, type Problem, pathOf, problemDocument } from '@engage/kit';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AdjustmentOutcome } from '../application/adjust-points.ts';

/** Renders a refusal exactly as the kit's error handler would for this request. */
export function problemRenderer(request: FastifyRequest) {
  return (problem: Problem) =>
    problemDocument(problem, pathOf(request), request.span?.spanContext().traceId ?? currentTraceId() ?? '');
}

/** Sends an outcome (fresh or replayed from an idempotency key) with its original status and body. */
export function sendOutcome(reply: FastifyReply, outcome: AdjustmentOutcome) {
  if (outcome.replayed) reply.header(IDEMPOTENT_REPLAYED_HEADER, 'true');
  if (outcome.status >= 400) reply.type(PROBLEM_MEDIA_TYPE).header('cache-control', 'no-store');
  return reply.code(outcome.status).send(outcome.body);
}
