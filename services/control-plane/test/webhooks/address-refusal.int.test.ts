import { createTenant, startStack, TEST_ADMIN_TOKEN, type TestStack } from '@engage/testkit';
import { eventually } from '@engage/testkit/events.ts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { REFUSED_ADDRESS_TEXT } from '../../src/webhooks/domain/address.ts';
import { asAdminToken } from '../operators/support.ts';
import { Receiver } from './receiver.ts';

// A gateway as deployed (no insecure URLs, no private addresses): a name passes when the endpoint is
// saved, and the address it resolves to is judged when the delivery connects.
let stack: TestStack;
let receiver: Receiver;

beforeAll(async () => {
  receiver = await Receiver.start();
  stack = await startStack({
    services: ['gateway'],
    webhooks: true,
    serviceEnv: { 'control-plane': { WEBHOOK_ALLOW_INSECURE_URLS: 'false', WEBHOOK_POLL_INTERVAL_MS: '50' } },
  });
}, 180_000);

afterAll(async () => {
  await stack?.stop();
  await receiver?.down();
});

it('fails the delivery to a name resolving to loopback with the one refusal text, sending nothing', async () => {
  const tenant = await createTenant(stack.controlPlaneUrl, TEST_ADMIN_TOKEN);
  const admin = (method: string, path: string, body?: unknown) =>
    asAdminToken(stack.controlPlaneUrl, method, path, body);
  // The receiver listens on loopback: https to it by name is saved, and refused at connect.
  const url = receiver.url.replace('http://127.0.0.1', 'https://localhost');
  const created = await admin('POST', `/environments/${tenant.sandbox.environmentId}/webhooks`, {
    url,
    eventTypes: ['points.adjusted'],
  });
  expect(created.status).toBe(201);
  const webhookId = (created.body as { id: string }).id;
  const ping = await admin('POST', `/webhooks/${webhookId}/ping`);
  expect(ping.status).toBe(202);
  const delivery = await eventually('the first attempt recorded', async () => {
    const page = await admin('GET', `/webhooks/${webhookId}/deliveries`);
    const [first] = (page.body as { items: { attempts: number; lastError: string | null }[] }).items;
    return first && first.attempts > 0 ? first : undefined;
  });
  expect(delivery).toMatchObject({ lastError: REFUSED_ADDRESS_TEXT, responseStatus: null });
  expect(receiver.received).toEqual([]);
});
