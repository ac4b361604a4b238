import { randomUUID } from 'node:crypto';
import {
  type CreatedWebhookEndpoint,
  type CreateWebhook,
  type RotatedWebhookSecret,
  type UpdateWebhook,
  WEBHOOK_PING_TYPE,
  type WebhookDelivery,
  type WebhookEndpoint,
} from '@engage/contracts/http/webhooks.ts';
import { problem } from '@engage/kit';
import type { Pool } from '@engage/postgres';
import { audited, type WriteOrigin } from '../application/audited.ts';
import { newWebhookSecret } from './domain/signature.ts';
import {
  countEndpointsForInsert,
  deleteEndpoint,
  findEndpoint,
  insertDelivery,
  insertEndpoint,
  requeueDelivery,
  rotateSecret,
  updateEndpoint,
} from './store.ts';

/**
 * The admin API's webhook writes, each recorded in the audit log with the endpoint before and
 * after (never its secret). `organizationId` is the organization the route resolved.
 */
export interface WebhookWriteContext {
  pool: Pool;
  origin: WriteOrigin;
  organizationId: string;
  /** Wakes this replica's delivery worker after a write that queued something to send. */
  kick: () => void;
}

type Parsed<T> = { [K in keyof T]-?: Exclude<T[K], undefined> };

/** Creates an endpoint, unless the environment already has `maxEndpoints` (webhook.too_many_endpoints). */
export function createWebhook(
  ctx: WebhookWriteContext,
  environmentId: string,
  input: Parsed<CreateWebhook>,
  maxEndpoints: number,
): Promise<CreatedWebhookEndpoint> {
  const secret = newWebhookSecret();
  return audited(ctx.pool, ctx.origin, async (client) => {
    if ((await countEndpointsForInsert(client, environmentId)) >= maxEndpoints) {
      throw problem(
        'webhook.too_many_endpoints',
        `The environment has ${maxEndpoints} webhook endpoints, the most allowed; delete one first.`,
      );
    }
    const created = await insertEndpoint(client, { environmentId, ...input, secret });
    const targets = { organizationId: ctx.organizationId, environmentId, webhookId: created.id };
    return {
      result: { ...created, secret },
      change: { organizationId: ctx.organizationId, targets, before: null, after: created },
    };
  });
}

export async function changeWebhook(
  ctx: WebhookWriteContext,
  webhookId: string,
  changes: UpdateWebhook,
): Promise<WebhookEndpoint | undefined> {
  const after = await audited(ctx.pool, ctx.origin, async (client) => {
    const before = await findEndpoint(client, webhookId, { forUpdate: true });
    if (!before) return { result: undefined, change: undefined };
    const changed = await updateEndpoint(client, webhookId, changes);
    const targets = { organizationId: ctx.organizationId, environmentId: before.environmentId, webhookId };
    return {
      result: changed,
      change: { organizationId: ctx.organizationId, targets, before, after: changed },
    };
  });
  if (after?.status === 'active') ctx.kick();
  return after;
}

export function removeWebhook(ctx: WebhookWriteContext, webhookId: string): Promise<boolean> {
  return audited(ctx.pool, ctx.origin, async (client) => {
    const before = await findEndpoint(client, webhookId, { forUpdate: true });
    if (!before) return { result: false, change: undefined };
    await deleteEndpoint(client, webhookId);
    const targets = { organizationId: ctx.organizationId, environmentId: before.environmentId, webhookId };
    return { result: true, change: { organizationId: ctx.organizationId, targets, before, after: null } };
  });
}

export function rotateWebhookSecret(
  ctx: WebhookWriteContext,
  webhookId: string,
  overlapSeconds: number,
): Promise<RotatedWebhookSecret | undefined> {
  const secret = newWebhookSecret();
  return audited(ctx.pool, ctx.origin, async (client) => {
    const before = await findEndpoint(client, webhookId, { forUpdate: true });
    if (!before) return { result: undefined, change: undefined };
    const rotated = await rotateSecret(client, webhookId, secret, overlapSeconds);
    const after = await findEndpoint(client, webhookId);
    const targets = { organizationId: ctx.organizationId, environmentId: before.environmentId, webhookId };
    return {
      result: rotated && { secret, previousSecretExpiresAt: rotated.previousSecretExpiresAt },
      change: {
        organizationId: ctx.organizationId,
        targets,
        before,
        after: { ...after, overlapSeconds, previousSecretExpiresAt: rotated?.previousSecretExpiresAt },
      },
    };
  });
}

export type ReplayOutcome =
  | { kind: 'no-webhook' }
  | { kind: 'no-delivery' }
  | { kind: 'queued'; delivery: WebhookDelivery };

export async function replayDelivery(
  ctx: WebhookWriteContext,
  webhookId: string,
  deliveryId: string,
): Promise<ReplayOutcome> {
  const outcome = await audited<ReplayOutcome>(ctx.pool, ctx.origin, async (client) => {
    const endpoint = await findEndpoint(client, webhookId);
    if (!endpoint) return { result: { kind: 'no-webhook' }, change: undefined };
    const delivery = await requeueDelivery(client, webhookId, deliveryId);
    if (!delivery) return { result: { kind: 'no-delivery' }, change: undefined };
    const targets = {
      organizationId: ctx.organizationId,
      environmentId: endpoint.environmentId,
      webhookId,
      deliveryId,
    };
    return {
      result: { kind: 'queued', delivery },
      change: { organizationId: ctx.organizationId, targets, before: null, after: withoutPayload(delivery) },
    };
  });
  if (outcome.kind === 'queued') ctx.kick();
  return outcome;
}

export async function pingWebhook(
  ctx: WebhookWriteContext,
  webhookId: string,
): Promise<WebhookDelivery | undefined> {
  const delivery = await audited(ctx.pool, ctx.origin, async (client) => {
    const endpoint = await findEndpoint(client, webhookId);
    if (!endpoint) return { result: undefined, change: undefined };
    const now = new Date().toISOString();
    const queued = await insertDelivery(client, {
      webhookId,
      eventType: WEBHOOK_PING_TYPE,
      playerId: null,
      sourceId: `ping:${randomUUID()}`,
      payload: {
        type: WEBHOOK_PING_TYPE,
        timestamp: now,
        environmentId: endpoint.environmentId,
        data: { webhookId, message: 'A test delivery from engage.' },
      },
    });
    const targets = {
      organizationId: ctx.organizationId,
      environmentId: endpoint.environmentId,
      webhookId,
      deliveryId: queued.id,
    };
    return {
      result: queued,
      change: { organizationId: ctx.organizationId, targets, before: null, after: withoutPayload(queued) },
    };
  });
  if (delivery) ctx.kick();
  return delivery;
}

const withoutPayload = ({ payload: _payload, ...delivery }: WebhookDelivery) => delivery;
