import {
  encodePlayerContext,
  IDEMPOTENT_REPLAYED_HEADER,
  INTERNAL_HEADERS,
  type PlayerContext,
} from '@engage/contracts';
import { fastifyPath, ROUTES, type RouteDefinition } from '@engage/contracts/http/routes.ts';
import { type HttpApp, injectContext, type Problem, unexpectedProblem } from '@engage/kit';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Authenticator } from '../application/authenticator.ts';
import { type PlayerDirectory, readPlayerId } from '../application/player-directory.ts';
import type { OwnerService, Upstreams } from '../upstreams/upstreams.ts';
import { environmentOfRequest, requireApiKey, useJsonParser } from './api-key-scope.ts';

/** Response headers of the owner that the caller gets back. */
const PASSED_BACK = ['content-type', 'cache-control', 'retry-after', IDEMPOTENT_REPLAYED_HEADER] as const;

export interface ForwardDeps {
  authenticator: Authenticator;
  players: PlayerDirectory;
  upstreams: Upstreams;
}

/**
 * Every /v1 route the catalog gives to another service is forwarded verbatim (method, path, query
 * string, JSON body) to its owner, with the environment and the player in the internal headers.
 * A request whose player id is refused is forwarded without a player: the owner validates the whole
 * request first, so its answer lists every rule the request breaks, the player id's among them, and
 * it acts only for a player the gateway resolved.
 */
export async function forwardRoutes(scope: HttpApp, deps: ForwardDeps): Promise<void> {
  requireApiKey(scope, deps.authenticator);
  useJsonParser(scope, JSON.parse, { keepRaw: true });
  for (const route of ROUTES) {
    if (route.owner === 'gateway') continue;
    const owner = route.owner;
    scope.route({
      method: route.method,
      url: fastifyPath(route.path),
      handler: (request, reply) => forward(request, reply, route, owner, deps),
    });
  }
}

async function forward(
  request: FastifyRequest,
  reply: FastifyReply,
  route: RouteDefinition,
  owner: OwnerService,
  deps: ForwardDeps,
) {
  const environment = environmentOfRequest(request);
  const named = readPlayerId(
    route.player === 'query' ? 'query' : 'body',
    route.player === 'query' ? request.query : request.body,
  );
  const refused: Problem | undefined = 'refused' in named ? named.refused : undefined;
  const player = 'playerId' in named ? await deps.players.resolve(environment, named.playerId) : undefined;
  const headers = internalHeaders(environment, player);
  if (request.rawBody !== undefined) headers['content-type'] = 'application/json';
  let response: Awaited<ReturnType<Upstreams[OwnerService]['request']>>;
  let body: Buffer;
  try {
    response = await deps.upstreams[owner].request({
      method: route.method,
      path: request.raw.url ?? request.url,
      headers,
      body: request.rawBody,
    });
    body = Buffer.from(await response.body.arrayBuffer());
  } catch (err) {
    request.log.error({ err, owner, route: route.id }, 'owning service did not answer');
    throw refused ?? unexpectedProblem();
  }
  // The owner's own checks missed what the gateway refused: the gateway's answer stands.
  if (refused && response.statusCode < 400) throw refused;
  for (const name of PASSED_BACK) {
    const value = response.headers[name];
    if (value !== undefined) reply.header(name, value);
  }
  return reply.code(response.statusCode).send(body);
}

function internalHeaders(
  environment: { organizationId: string; environmentId: string; environmentKind: string },
  player: PlayerContext | undefined,
): Record<string, string> {
  return injectContext({
    [INTERNAL_HEADERS.organizationId]: environment.organizationId,
    [INTERNAL_HEADERS.environmentId]: environment.environmentId,
    [INTERNAL_HEADERS.environmentKind]: environment.environmentKind,
    ...(player ? { [INTERNAL_HEADERS.player]: encodePlayerContext(player) } : {}),
  });
}
