import {
  decodePlayerContext,
  type EnvironmentContext,
  EnvironmentKindSchema,
  INTERNAL_HEADERS,
  type PlayerContext,
} from '@engage/contracts';
import type { FastifyRequest } from 'fastify';
import { problem } from './problems.ts';

/** The environment the gateway resolved from the API key, read from the forwarded headers. */
export function environmentOf(request: FastifyRequest): EnvironmentContext {
  const organizationId = header(request, INTERNAL_HEADERS.organizationId);
  const environmentId = header(request, INTERNAL_HEADERS.environmentId);
  const kind = EnvironmentKindSchema.safeParse(header(request, INTERNAL_HEADERS.environmentKind));
  if (!organizationId || !environmentId || !kind.success) {
    throw problem('project_environment.not_found');
  }
  return { organizationId, environmentId, environmentKind: kind.data };
}

/** The player the gateway resolved (and created on first sight) for this request. */
export function playerOf(request: FastifyRequest): PlayerContext {
  const raw = header(request, INTERNAL_HEADERS.player);
  if (!raw) throw problem('player.external_id_missing');
  return decodePlayerContext(raw);
}

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}
