import { problemResponses } from '@engage/contracts/http/openapi-problem-responses.ts';
import {
  CreatedWebhookEndpointSchema,
  CreateWebhookSchema,
  MAX_WEBHOOK_DELIVERIES_PER_PAGE,
  RotatedWebhookSecretSchema,
  RotateWebhookSecretSchema,
  UpdateWebhookSchema,
  WEBHOOK_DELIVERY_STATUSES,
  WEBHOOK_PAYLOAD_DATA,
  WebhookDeliveryPageSchema,
  WebhookDeliverySchema,
  type WebhookDeliveryType,
  WebhookEndpointListSchema,
  WebhookEndpointSchema,
  webhookPayloadSchema,
} from '@engage/contracts/http/webhooks.ts';
import { z } from 'zod';

/**
 * The webhook operations of the admin API and the OpenAPI 3.1 `webhooks` section: the requests the
 * gateway sends to a subscribed endpoint, one per event type.
 */

type JsonSchema = Record<string, unknown>;

const json = (description: string, ref: string) => ({
  description,
  content: { 'application/json': { schema: { $ref: `#/components/schemas/${ref}` } } },
});
const body = (ref: string, required = true) => ({
  required,
  content: { 'application/json': { schema: { $ref: `#/components/schemas/${ref}` } } },
});
const uuid = (name: string) => ({
  name,
  in: 'path',
  required: true,
  schema: { type: 'string', format: 'uuid' },
});
const either = [{ sessionCookie: [] }, { adminToken: [] }];
const REFUSALS = [
  'validation.request',
  'admin.unauthorized',
  'admin.forbidden',
  'admin.csrf_failed',
] as const;
const ofWebhook = problemResponses([...REFUSALS, 'webhook.not_found']);

export function webhookOperations(): {
  paths: Record<string, Record<string, unknown>>;
  schemas: Record<string, JsonSchema>;
  webhooks: Record<string, Record<string, unknown>>;
} {
  const types = Object.keys(WEBHOOK_PAYLOAD_DATA) as WebhookDeliveryType[];
  const payloadId = (type: string) =>
    `WebhookPayload${type
      .split(/[._]/)
      .map((word) => word[0]!.toUpperCase() + word.slice(1))
      .join('')}`;
  const input = z.toJSONSchema(
    z.object({
      a: CreateWebhookSchema,
      b: UpdateWebhookSchema,
      c: RotateWebhookSecretSchema,
    }),
    { io: 'input', target: 'draft-2020-12' },
  ) as { $defs?: Record<string, JsonSchema> };
  const output = z.toJSONSchema(
    z.object({
      a: WebhookEndpointSchema,
      b: CreatedWebhookEndpointSchema,
      c: WebhookEndpointListSchema,
      d: RotatedWebhookSecretSchema,
      e: WebhookDeliverySchema,
      f: WebhookDeliveryPageSchema,
      ...Object.fromEntries(
        types.map((type) => [type, webhookPayloadSchema(type).meta({ id: payloadId(type) })]),
      ),
    }),
    { io: 'output', target: 'draft-2020-12' },
  ) as { $defs?: Record<string, JsonSchema> };
  // zod names nested schemas `#/$defs/…`: in the document they are components.
  const schemas = JSON.parse(
    JSON.stringify({ ...input.$defs, ...output.$defs }).replaceAll('"#/$defs/', '"#/components/schemas/'),
  ) as Record<string, JsonSchema>;
  const webhooks = Object.fromEntries(types.map((type) => [type, delivery(type, payloadId(type))]));
  return { paths: paths(), schemas, webhooks };
}

const SIGNATURE_HEADERS = {
  'webhook-id': {
    required: true,
    description: 'The delivery id: the same on every attempt and replay. Deduplicate on it.',
    schema: { type: 'string', format: 'uuid' },
  },
  'webhook-timestamp': {
    required: true,
    description: 'Unix seconds when this attempt was signed. Refuse ones far from your clock.',
    schema: { type: 'string' },
  },
  'webhook-signature': {
    required: true,
    description:
      'Space-separated `v1,<base64 HMAC-SHA256 of "{webhook-id}.{webhook-timestamp}.{body}">`, one per ' +
      'secret in use (two during a rotation overlap). Verify with any Standard Webhooks library.',
    schema: { type: 'string' },
  },
};

function delivery(type: WebhookDeliveryType, ref: string) {
  return {
    post: {
      operationId: `webhook_${type.replace('.', '_')}`,
      tags: ['Webhooks'],
      summary:
        type === 'webhook.ping'
          ? 'A test delivery queued by POST /admin/v1/webhooks/{webhookId}/ping.'
          : `Sent to each endpoint subscribed to \`${type}\` in the environment.`,
      description:
        'Signed per Standard Webhooks. Answer any 2xx within the timeout (10 s by default) to acknowledge; ' +
        'anything else is retried with exponential backoff. Deliveries for one player reach an endpoint in order.',
      parameters: Object.entries(SIGNATURE_HEADERS).map(([name, header]) => ({
        name,
        in: 'header',
        ...header,
      })),
      requestBody: body(ref),
      responses: { '2XX': { description: 'Acknowledged: the delivery is not sent again.' } },
    },
  };
}

function paths(): Record<string, Record<string, unknown>> {
  const webhook = uuid('webhookId');
  return {
    '/admin/v1/environments/{environmentId}/webhooks': {
      get: {
        operationId: 'listWebhooks',
        tags: ['Admin'],
        summary: "The environment's webhook endpoints with their health (viewer).",
        security: either,
        parameters: [uuid('environmentId')],
        responses: {
          '200': json('OK', 'WebhookEndpointList'),
          ...problemResponses([...REFUSALS, 'environment.not_found']),
        },
      },
      post: {
        operationId: 'createWebhook',
        tags: ['Admin'],
        summary:
          'Subscribes an endpoint to event types; answers its signing secret, shown only here and on rotate (admin).',
        security: either,
        parameters: [uuid('environmentId')],
        requestBody: body('CreateWebhook'),
        responses: {
          '201': json('Created', 'CreatedWebhookEndpoint'),
          ...problemResponses([...REFUSALS, 'environment.not_found', 'webhook.too_many_endpoints']),
        },
      },
    },
    '/admin/v1/webhooks/{webhookId}': {
      get: {
        operationId: 'getWebhook',
        tags: ['Admin'],
        summary: 'A webhook endpoint with its health (viewer).',
        security: either,
        parameters: [webhook],
        responses: { '200': json('OK', 'WebhookEndpoint'), ...ofWebhook },
      },
      patch: {
        operationId: 'updateWebhook',
        tags: ['Admin'],
        summary:
          'Changes an endpoint; `status: active` resumes a paused one and sends its kept deliveries in order (admin).',
        security: either,
        parameters: [webhook],
        requestBody: body('UpdateWebhook'),
        responses: { '200': json('OK', 'WebhookEndpoint'), ...ofWebhook },
      },
      delete: {
        operationId: 'deleteWebhook',
        tags: ['Admin'],
        summary: 'Removes an endpoint and its deliveries, sent or not (admin).',
        security: either,
        parameters: [webhook],
        responses: { '204': { description: 'Removed.' }, ...ofWebhook },
      },
    },
    '/admin/v1/webhooks/{webhookId}/rotate-secret': {
      post: {
        operationId: 'rotateWebhookSecret',
        tags: ['Admin'],
        summary:
          'Answers a new signing secret; during the overlap deliveries carry a signature of each (admin).',
        security: either,
        parameters: [webhook],
        requestBody: body('RotateWebhookSecret', false),
        responses: { '200': json('OK', 'RotatedWebhookSecret'), ...ofWebhook },
      },
    },
    '/admin/v1/webhooks/{webhookId}/deliveries': {
      get: {
        operationId: 'listWebhookDeliveries',
        tags: ['Admin'],
        summary: "A page of the endpoint's deliveries, newest first, with each one's last attempt (viewer).",
        security: either,
        parameters: [
          webhook,
          {
            name: 'status',
            in: 'query',
            schema: { type: 'string', enum: [...WEBHOOK_DELIVERY_STATUSES] },
          },
          {
            name: 'limit',
            in: 'query',
            schema: { type: 'integer', minimum: 1, maximum: MAX_WEBHOOK_DELIVERIES_PER_PAGE, default: 50 },
          },
          {
            name: 'cursor',
            in: 'query',
            description: "The previous page's `nextCursor`.",
            schema: { type: 'string' },
          },
        ],
        responses: { '200': json('OK', 'WebhookDeliveryPage'), ...ofWebhook },
      },
    },
    '/admin/v1/webhooks/{webhookId}/deliveries/{deliveryId}/replay': {
      post: {
        operationId: 'replayWebhookDelivery',
        tags: ['Admin'],
        summary:
          'Queues a delivery again as a new series of attempts, with the same id for the receiver to deduplicate (admin).',
        security: either,
        parameters: [webhook, uuid('deliveryId')],
        responses: {
          '202': json('Queued', 'WebhookDelivery'),
          ...problemResponses([...REFUSALS, 'webhook.not_found', 'webhook_delivery.not_found']),
        },
      },
    },
    '/admin/v1/webhooks/{webhookId}/ping': {
      post: {
        operationId: 'pingWebhook',
        tags: ['Admin'],
        summary: 'Queues a `webhook.ping` delivery to the endpoint (admin).',
        security: either,
        parameters: [webhook],
        responses: { '202': json('Queued', 'WebhookDelivery'), ...ofWebhook },
      },
    },
  };
}
