import {
  createTenant,
  type SectionOwner,
  startSectionOwner,
  TEST_ADMIN_TOKEN,
  type Tenant,
} from '@engage/testkit';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { adminHeaders, bearer, type InProcessGateway, startGateway } from './support.ts';

let owner: SectionOwner;
let gateway: InProcessGateway;
let tenant: Tenant;

beforeAll(async () => {
  // Reading the file asks every section's owner.
  owner = await startSectionOwner();
  gateway = await startGateway({ upstreams: { rules: owner.url, ledger: owner.url, query: owner.url } });
  tenant = await createTenant(gateway.controlPlaneUrl, TEST_ADMIN_TOKEN, {
    definition: { discovery: true, events: [{ key: 'declared_one', properties: {} }] },
  });
});
afterAll(async () => {
  await gateway?.close();
  await owner?.close();
});

const definitionPath = () => `/admin/v1/environments/${tenant.sandbox.environmentId}/definition`;
// biome-ignore lint/suspicious/noExplicitAny: the same loose answer as app.inject's json()
type Loose = any;
// The admin API is the control plane's, beside the gateway.
const read = async (): Promise<Loose> =>
  (await fetch(`${gateway.controlPlaneUrl}${definitionPath()}`, { headers: adminHeaders })).json();
const put = async (body: Record<string, unknown>, dryRun: boolean): Promise<Loose> =>
  (
    await fetch(`${gateway.controlPlaneUrl}${definitionPath()}?dryRun=${dryRun}`, {
      method: 'PUT',
      headers: { ...adminHeaders, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    })
  ).json();

it('reads a discovered event back as discovered, and declares it when the file lists it without the flag', async () => {
  const sent = await gateway.app.inject({
    method: 'POST',
    url: '/v1/events',
    headers: bearer(tenant.sandbox.apiKey),
    payload: { events: [{ eventKey: 'found_one', playerId: 'p1', properties: { score: 4 } }] },
  });
  expect(sent.json().accepted).toBe(1);

  const file = await read();
  const found = file.events.find((e: { key: string }) => e.key === 'found_one');
  expect(found).toMatchObject({ discovered: true, properties: { score: { type: 'number' } } });
  expect(file.events.find((e: { key: string }) => e.key === 'declared_one').discovered).toBeUndefined();

  // The file as read applies to the same state.
  expect((await put({ events: file.events }, true)).changed).toBe(false);

  const declaring = file.events.map(({ discovered: _, ...event }: { discovered?: boolean }) => event);
  const preview = await put({ events: declaring }, true);
  expect(preview.changes).toContainEqual({
    section: 'events',
    key: 'found_one',
    change: 'updated',
    fields: ['discovered'],
  });
  expect((await read()).events.find((e: { key: string }) => e.key === 'found_one').discovered).toBe(true);

  expect((await put({ events: declaring }, false)).changed).toBe(true);
  const after = await read();
  expect(after.events.find((e: { key: string }) => e.key === 'found_one')).not.toHaveProperty('discovered');
});
