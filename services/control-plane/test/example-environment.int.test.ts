import { readFile } from 'node:fs/promises';
import { AdminClient } from '@engage/cli';
import { environmentJsonSchema } from '@engage/contracts/environment-file.ts';
import { createTenant, type SectionOwner, startSectionOwner, TEST_ADMIN_TOKEN } from '@engage/testkit';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { DEMO_ENVIRONMENT_FILE, provisionDemo } from '../src/tools/demo-tenant.ts';
import { type InProcessControlPlane, startControlPlane } from './support.ts';

let controlPlane: InProcessControlPlane;
let owner: SectionOwner;

beforeAll(async () => {
  owner = await startSectionOwner();
  controlPlane = await startControlPlane({
    upstreams: { rules: owner.url, ledger: owner.url, query: owner.url },
  });
});
afterAll(async () => {
  await controlPlane?.close();
  await owner?.close();
});

const example = async () =>
  parseYaml(await readFile(DEMO_ENVIRONMENT_FILE, 'utf8')) as Record<string, unknown>;

describe('docs/examples/environment.yaml', () => {
  it('is valid against the published JSON Schema, with one of every section', async () => {
    const file = await example();
    const ajv = new Ajv2020({ allErrors: true, strict: false });
    addFormats.default(ajv);
    const validate = ajv.compile(environmentJsonSchema());
    expect(validate(file), JSON.stringify(validate.errors)).toBe(true);
    const published = JSON.parse(
      await readFile(new URL('../../../docs/schemas/environment.schema.json', import.meta.url), 'utf8'),
    );
    expect(published).toEqual(environmentJsonSchema());
    const sections = Object.keys(fileSchemaProperties()).filter((k) => k !== '$schema');
    expect(Object.keys(file).sort()).toEqual(sections.sort());
  });

  it('applies as created, with no warning, and again with no changes', async () => {
    const tenant = await createTenant(controlPlane.url);
    const admin = new AdminClient({ url: controlPlane.url, token: TEST_ADMIN_TOKEN });
    const file = await example();
    const first = await admin.applyDefinition(tenant.sandbox.environmentId, file);
    expect(first.warnings).toEqual([]);
    expect(first.changes.filter((c) => c.change !== 'created' && c.section !== 'discovery')).toEqual([]);
    expect(first.changes.map((c) => c.section)).toEqual(
      expect.arrayContaining([
        'events',
        'missions',
        'missionCollections',
        'streaks',
        'leaderboards',
        'marketplace',
      ]),
    );
    const again = await admin.applyDefinition(tenant.sandbox.environmentId, file);
    expect(again.changed).toBe(false);
  });

  it('is what a known demo tenant gets applied again, keeping its keys', async () => {
    const admin = new AdminClient({ url: controlPlane.url, token: TEST_ADMIN_TOKEN });
    // A tenant of its own: the "Demo" organization is shared with apply.int.test.ts.
    const tenant = await createTenant(controlPlane.url);
    const known = {
      ownerEmail: 'owner@demo.local',
      organizationId: tenant.organizationId,
      projectId: tenant.projectId,
      sandboxEnvironmentId: tenant.sandbox.environmentId,
      liveEnvironmentId: tenant.live.environmentId,
      sandboxKey: tenant.sandbox.apiKey,
      liveKey: tenant.live.apiKey,
    };
    const keys = await admin.listApiKeys(known.sandboxEnvironmentId);
    expect(await provisionDemo(admin, 'a passphrase for the demo', known)).toEqual(known);
    expect(await admin.listApiKeys(known.sandboxEnvironmentId)).toHaveLength(keys.length);
    for (const environmentId of [known.sandboxEnvironmentId, known.liveEnvironmentId]) {
      const definition = await admin.getDefinition(environmentId);
      expect(definition.missions?.map((m) => m.key)).toEqual(['first-level', 'high-scorer']);
    }
  });
});

function fileSchemaProperties(): Record<string, unknown> {
  const defs = environmentJsonSchema().$defs as Record<string, { properties: Record<string, unknown> }>;
  return defs.EnvironmentFile!.properties;
}
