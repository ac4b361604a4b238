import {
  CreatedWebhookEndpointSchema,
  CreateWebhookSchema,
  ListWebhookDeliveriesQuerySchema,
  RotatedWebhookSecretSchema,
  RotateWebhookSecretSchema,
  UpdateWebhookSchema,
  WebhookDeliveryPageSchema,
  WebhookDeliverySchema,
  WebhookEndpointListSchema,
  WebhookEndpointSchema,
} from '@engage/contracts/http/webhooks.ts';
import { type HttpApp, notFound, validationProblem } from '@engage/kit';
import type { Pool } from '@engage/postgres';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { callerOf } from '../http/admin-access.ts';
import { writeOrigin } from '../http/admin-operators.ts';
import { type WebhookUrlRules, webhookUrlRefusal } from './domain/url.ts';
import {
  changeWebhook,
  createWebhook,
  pingWebhook,
  removeWebhook,
  replayDelivery,
  rotateWebhookSecret,
  type WebhookWriteContext,
} from './endpoints.ts';
import { findEndpoint, InvalidCursorError, listDeliveries, listEndpoints } from './store.ts';

const environmentParams = z.object({ environmentId: z.uuid() });
const webhookParams = z.object({ webhookId: z.uuid() });
const deliveryParams = z.object({ webhookId: z.uuid(), deliveryId: z.uuid() });

const webhookNotFound = () => notFound('webhook.not_found');

export interface WebhookRouteDeps {
  pool: Pool;
  /** Whether plain http URLs to loopback hosts are accepted (WEBHOOK_ALLOW_INSECURE_URLS). */
  urlRules: WebhookUrlRules;
  /** Endpoints one environment may have. */
  maxEndpointsPerEnvironment: number;
  /** Wakes this replica's delivery worker. */
  kick: () => void;
}

/** Webhook endpoints and their deliveries (access: ADMIN_ROUTE_RULES). */
export function webhookRoutes(scope: HttpApp, deps: WebhookRouteDeps): void {
  const { pool } = deps;
  const context = (request: FastifyRequest): WebhookWriteContext => ({
    pool,
    origin: writeOrigin(request),
    organizationId: callerOf(request).organizationId!,
    kick: deps.kick,
  });
  const checkUrl = (url: string | undefined) => {
    const refusal = url === undefined ? undefined : webhookUrlRefusal(url, deps.urlRules);
    if (refusal) throw validationProblem([{ path: ['url'], message: refusal, reason: 'url_refused' }]);
  };

  scope.post(
    '/environments/:environmentId/webhooks',
    {
      schema: {
        params: environmentParams,
        body: CreateWebhookSchema,
        response: { 201: CreatedWebhookEndpointSchema },
      },
    },
    async (request, reply) => {
      checkUrl(request.body.url);
      const created = await createWebhook(
        context(request),
        request.params.environmentId,
        request.body,
        deps.maxEndpointsPerEnvironment,
      );
      return reply.code(201).send(created);
    },
  );

  scope.get(
    '/environments/:environmentId/webhooks',
    { schema: { params: environmentParams, response: { 200: WebhookEndpointListSchema } } },
    async (request) => ({ items: await listEndpoints(pool, request.params.environmentId) }),
  );

  scope.get(
    '/webhooks/:webhookId',
    { schema: { params: webhookParams, response: { 200: WebhookEndpointSchema } } },
    async (request) =>
      (await findEndpoint(pool, request.params.webhookId)) ?? Promise.reject(webhookNotFound()),
  );

  scope.patch(
    '/webhooks/:webhookId',
    {
      schema: { params: webhookParams, body: UpdateWebhookSchema, response: { 200: WebhookEndpointSchema } },
    },
    async (request) => {
      checkUrl(request.body.url);
      return (
        (await changeWebhook(context(request), request.params.webhookId, request.body)) ??
        Promise.reject(webhookNotFound())
      );
    },
  );

  scope.delete('/webhooks/:webhookId', { schema: { params: webhookParams } }, async (request, reply) => {
    if (!(await removeWebhook(context(request), request.params.webhookId))) throw webhookNotFound();
    return reply.code(204).send();
  });

  scope.post(
    '/webhooks/:webhookId/rotate-secret',
    {
      schema: {
        params: webhookParams,
        // The body is optional: none rotates with the default overlap.
        body: z.preprocess((body) => body ?? {}, RotateWebhookSecretSchema),
        response: { 200: RotatedWebhookSecretSchema },
      },
    },
    async (request) => {
      const overlap = request.body.overlapSeconds;
      return (
        (await rotateWebhookSecret(context(request), request.params.webhookId, overlap)) ??
        Promise.reject(webhookNotFound())
      );
    },
  );

  scope.get(
    '/webhooks/:webhookId/deliveries',
    {
      schema: {
        params: webhookParams,
        querystring: ListWebhookDeliveriesQuerySchema,
        response: { 200: WebhookDeliveryPageSchema },
      },
    },
    async (request) => {
      if (!(await findEndpoint(pool, request.params.webhookId))) throw webhookNotFound();
      try {
        return await listDeliveries(pool, request.params.webhookId, request.query);
      } catch (err) {
        if (!(err instanceof InvalidCursorError)) throw err;
        throw validationProblem([
          {
            path: ['cursor'],
            message: 'must be the nextCursor of a previous page',
            reason: 'invalid_cursor',
          },
        ]);
      }
    },
  );

  scope.post(
    '/webhooks/:webhookId/deliveries/:deliveryId/replay',
    { schema: { params: deliveryParams, response: { 202: WebhookDeliverySchema } } },
    async (request, reply) => {
      const { webhookId, deliveryId } = request.params;
      const outcome = await replayDelivery(context(request), webhookId, deliveryId);
      if (outcome.kind === 'no-webhook') throw webhookNotFound();
      if (outcome.kind === 'no-delivery') throw notFound('webhook_delivery.not_found');
      return reply.code(202).send(outcome.delivery);
    },
  );

  scope.post(
    '/webhooks/:webhookId/ping',
    { schema: { params: webhookParams, response: { 202: WebhookDeliverySchema } } },
    async (request, reply) => {
      const delivery = await pingWebhook(context(request), request.params.webhookId);
      if (!delivery) throw webhookNotFound();
      return reply.code(202).send(delivery);
    },
  );
}
