import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AdminClient, buildProgram } from '@engage/cli';
import { createTenant, type SectionOwner, startSectionOwner, TEST_ADMIN_TOKEN } from '@engage/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { provisionDemo } from '../src/tools/demo-tenant.ts';
import {
  adminHeaders,
  bearer,
  type InProcessControlPlane,
  injectGateway,
  startControlPlane,
} from './support.ts';

let controlPlane: InProcessControlPlane;
let owner: SectionOwner;

beforeAll(async () => {
  // Every other service's sections are read back from their owners: one small owner for all.
  owner = await startSectionOwner();
  controlPlane = await startControlPlane({
    upstreams: { rules: owner.url, ledger: owner.url, query: owner.url },
  });
});
afterAll(async () => {
  await controlPlane?.close();
  await owner?.close();
});

const ENV_YAML = `
discovery: false
events:
  - key: level_completed
    properties:
      level: { type: number, required: true }
      score: { type: number }
  - key: session_started
`;

/** Runs `engage <args>` in-process against the test controlPlane and returns what it printed. */
async function engage(...args: string[]): Promise<string> {
  let output = '';
  const program = buildProgram({
    out: (text) => (output += text),
    env: { ENGAGE_ADMIN_TOKEN: TEST_ADMIN_TOKEN },
  });
  await program.parseAsync(['node', 'engage', '--url', controlPlane.url, ...args]);
  return output;
}

describe('engage apply', () => {
  it('applies an environment file once: a dry run writes nothing, a second apply changes nothing', async () => {
    const tenant = await createTenant(controlPlane.url);
    const environment = tenant.sandbox.environmentId;
    const file = join(tmpdir(), `env-${crypto.randomUUID()}.yaml`);
    await writeFile(file, ENV_YAML);

    const dry = await engage('apply', '-f', file, '-e', environment, '--dry-run');
    expect(dry).toContain('+ events level_completed: created');
    expect(dry).toContain('dry run: nothing written');
    const admin = new AdminClient({ url: controlPlane.url, token: TEST_ADMIN_TOKEN });
    expect((await admin.getDefinition(environment)).events).toEqual([]);

    const first = JSON.parse(await engage('apply', '-f', file, '-e', environment, '--json'));
    expect(first.changed).toBe(true);
    expect(first.changes.map((c: { key: string; change: string }) => `${c.key}:${c.change}`)).toEqual([
      'discovery:unchanged',
      'level_completed:created',
      'session_started:created',
    ]);
    const second = await engage('apply', '-f', file, '-e', environment);
    expect(second).toContain('no changes');
    expect(second).not.toMatch(/created|updated|removed/);

    // The applied definition is what POST /v1/events checks against.
    const res = await injectGateway(controlPlane, {
      method: 'POST',
      url: '/v1/events',
      headers: bearer(tenant.sandbox.apiKey),
      payload: { events: [{ eventKey: 'level_completed', playerId: 'p', properties: {} }] },
    });
    expect(res.json().results[0].errors[0].code).toBe('event.required_property_missing');

    await writeFile(file, 'events:\n  - key: session_started\n');
    const removal = await engage('apply', '-f', file, '-e', environment);
    expect(removal).toContain('- events level_completed: removed');
  });

  it('refuses unknown sections with a validation problem', async () => {
    const tenant = await createTenant(controlPlane.url);
    const res = await controlPlane.app.inject({
      method: 'PUT',
      url: `/admin/v1/environments/${tenant.sandbox.environmentId}/definition`,
      headers: adminHeaders,
      payload: { missionz: [] },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toMatch(/^validation\./);
  });

  it('refuses a file holding U+0000 or an unpaired surrogate, naming the place, and writes nothing', async () => {
    const tenant = await createTenant(controlPlane.url);
    const environment = tenant.sandbox.environmentId;
    const file = join(tmpdir(), `env-${crypto.randomUUID()}.yaml`);
    // YAML escapes: \0 is U+0000, \uD800 an unpaired surrogate.
    await writeFile(
      file,
      'events:\n  - key: level_completed\n    description: "bad\\0"\n  - key: other\n    description: "\\uD800"\n',
    );
    const refusal = await engage('apply', '-f', file, '-e', environment).catch((err: Error) => err.message);
    expect(refusal).toContain('validation.events: events.0.description contains U+0000');
    expect(refusal).toContain('validation.events: events.1.description contains U+0000');
    const admin = new AdminClient({ url: controlPlane.url, token: TEST_ADMIN_TOKEN });
    expect((await admin.getDefinition(environment)).events).toEqual([]);
  });

  it('serves the JSON Schema of the file and the OpenAPI document', async () => {
    const schema = await controlPlane.app.inject({
      url: '/admin/v1/schemas/environment.json',
      headers: adminHeaders,
    });
    expect(schema.json().$defs.EnvironmentFile.additionalProperties).toBe(false);
    const openapi = await controlPlane.app.inject({ url: '/openapi.json' });
    expect(openapi.json().openapi).toBe('3.1.0');
  });

  it('provisions the demo tenant idempotently', async () => {
    const admin = new AdminClient({ url: controlPlane.url, token: TEST_ADMIN_TOKEN });
    const password = 'a passphrase for the demo';
    const [first, second] = [await provisionDemo(admin, password), await provisionDemo(admin, password)];
    expect(second.organizationId).toBe(first.organizationId);
    // Its first Owner once, who signs in with the password given.
    const owners = (await admin.listOperators(first.organizationId)).filter(
      (o) => o.email === first.ownerEmail,
    );
    expect(owners).toEqual([expect.objectContaining({ email: 'owner@demo.local', role: 'owner' })]);
    const signIn = await controlPlane.app.inject({
      method: 'POST',
      url: '/admin/v1/session',
      payload: { email: first.ownerEmail, password },
    });
    expect(signIn.json().memberships).toContainEqual(
      expect.objectContaining({ organizationId: first.organizationId, role: 'owner' }),
    );
    expect(second.projectId).toBe(first.projectId);
    expect(first.sandboxKey).toMatch(/^eng_sandbox_/);
    const res = await injectGateway(controlPlane, {
      method: 'POST',
      url: '/v1/events',
      headers: bearer(second.liveKey),
      payload: { events: [{ eventKey: 'session_started', playerId: 'demo-player' }] },
    });
    expect(res.json().accepted).toBe(1);
  });
});
