import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AdminClient, buildProgram } from '@engage/cli';
import { createTenant, type SectionOwner, startSectionOwner, TEST_ADMIN_TOKEN } from '@engage/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  adminHeaders,
  bearer,
  type InProcessControlPlane,
  injectGateway,
  startControlPlane,
} from './support.ts';

let controlPlane: InProcessControlPlane;
let owner: SectionOwner;
let admin: AdminClient;

beforeAll(async () => {
  owner = await startSectionOwner();
  controlPlane = await startControlPlane({
    upstreams: { rules: owner.url, ledger: owner.url, query: owner.url },
  });
  admin = new AdminClient({ url: controlPlane.url, token: TEST_ADMIN_TOKEN });
});
afterAll(async () => {
  await controlPlane?.close();
  await owner?.close();
});

async function engage(...args: string[]): Promise<string> {
  let output = '';
  const program = buildProgram({
    out: (text) => (output += text),
    env: { ENGAGE_ADMIN_TOKEN: TEST_ADMIN_TOKEN },
  });
  await program.parseAsync(['node', 'engage', '--url', controlPlane.url, ...args]);
  return output;
}

async function yamlFile(text: string): Promise<string> {
  const file = join(tmpdir(), `env-${crypto.randomUUID()}.yaml`);
  await writeFile(file, text);
  return file;
}

const MISSPELLED = `
events:
  - key: level_completed
    properties:
      score: { type: number }
missions:
  - key: first-clear
    name: First clear
    objectives:
      - { key: clear, event: level_complete }
leaderboards:
  - key: best
    name: Best score
    scoreSource: { type: Event, event: level_completed, property: socre }
missionCollections:
  - { key: starter, name: Starter, missions: [first-clear, frist-clear] }
`;

describe('references an environment file makes', () => {
  it('are refused when unknown, with each path and the closest names, and nothing is written', async () => {
    const tenant = await createTenant(controlPlane.url);
    const environment = tenant.sandbox.environmentId;
    const file = await yamlFile(MISSPELLED);
    const callsBefore = owner.calls.length;

    const refusal = await engage('apply', '-f', file, '-e', environment).then(
      () => 'applied',
      (err: Error) => err.message,
    );
    expect(refusal.split('\n')).toEqual([
      'admin API answered 400',
      '  definition.unknown_event: no event level_complete is defined (at missions.0.objectives.0.event; closest: level_completed)',
      '  definition.unknown_property: event level_completed has no property socre (at leaderboards.0.scoreSource.property; closest: score)',
      '  definition.unknown_mission: collection starter names mission frist-clear, which is not defined (at missionCollections.0.missions.1; closest: first-clear)',
    ]);
    expect(owner.calls.length).toBe(callsBefore);
    expect((await admin.getDefinition(environment)).events).toEqual([]);
  });

  it('are refused by the API with a problem document the console can show', async () => {
    const tenant = await createTenant(controlPlane.url);
    const res = await controlPlane.app.inject({
      method: 'PUT',
      url: `/admin/v1/environments/${tenant.sandbox.environmentId}/definition?dryRun=true`,
      headers: adminHeaders,
      payload: {
        events: [{ key: 'match_won', properties: { team: { type: 'string' } } }],
        streaks: [{ key: 'daily-win', name: 'Daily win', events: [{ event: 'match_wno' }] }],
      },
    });
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.json()).toMatchObject({
      code: 'definition.unknown_event',
      detail: 'no event match_wno is defined',
      errors: [
        {
          code: 'definition.unknown_event',
          meta: { path: 'streaks.0.events.0.event', name: 'match_wno', closest: ['match_won'] },
        },
      ],
    });
  });

  it("are refused for a shop collection's unknown item, with its path", async () => {
    const tenant = await createTenant(controlPlane.url);
    const res = await controlPlane.app.inject({
      method: 'PUT',
      url: `/admin/v1/environments/${tenant.sandbox.environmentId}/definition`,
      headers: adminHeaders,
      payload: {
        marketplace: {
          items: [{ key: 'gem-pack', name: 'Gems', priceInPoints: 5 }],
          collections: [{ key: 'offers', name: 'Offers', items: ['gem-pack', 'gem-pak'] }],
        },
      },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual([
      expect.objectContaining({
        code: 'validation.marketplace',
        meta: expect.objectContaining({ path: 'marketplace.collections.0.items.1' }),
      }),
    ]);
  });

  it('check the stored events when the file has none, and the stored missions for a collection', async () => {
    const tenant = await createTenant(controlPlane.url);
    const environment = tenant.sandbox.environmentId;
    await admin.applyDefinition(environment, {
      events: [{ key: 'level_completed', properties: { score: { type: 'number' } } }],
      missions: [
        { key: 'first-clear', name: 'First clear', objectives: [{ key: 'o', event: 'level_completed' }] },
      ],
    });
    const diff = await admin.applyDefinition(environment, {
      leaderboards: [
        {
          key: 'best',
          name: 'Best',
          scoreSource: { type: 'Event', event: 'level_completed', property: 'score' },
        },
      ],
      missionCollections: [{ key: 'starter', name: 'Starter', missions: ['first-clear'] }],
    });
    expect(diff.warnings).toEqual([]);
    const refused = await admin
      .applyDefinition(environment, { missionCollections: [{ key: 'c', name: 'C', missions: ['gone'] }] })
      .catch((err: { code: string }) => err.code);
    expect(refused).toBe('definition.unknown_mission');
  });

  it('to what only discovery defined apply with a warning; what nothing defined is still refused', async () => {
    const tenant = await createTenant(controlPlane.url);
    const environment = tenant.sandbox.environmentId;
    await admin.applyDefinition(environment, { discovery: true });
    const sent = await injectGateway(controlPlane, {
      method: 'POST',
      url: '/v1/events',
      headers: bearer(tenant.sandbox.apiKey),
      payload: { events: [{ eventKey: 'boss_killed', playerId: 'p1', properties: { damage: 40 } }] },
    });
    expect(sent.json().accepted).toBe(1);

    const file = await yamlFile(`
missions:
  - key: slayer
    name: Slayer
    objectives:
      - { key: damage, event: boss_killed, measure: { kind: sum, property: damage }, target: 100 }
`);
    const output = await engage('apply', '-f', file, '-e', environment);
    expect(output.split('\n')).toEqual([
      '+ missions slayer: created',
      '! warning definition.undeclared_event: event boss_killed is not declared; discovery defined it from its use (at missions.0.objectives.0.event)',
      '! warning definition.undeclared_property: property damage of event boss_killed is not declared; discovery defined it from its use (at missions.0.objectives.0.measure.property)',
      'applied',
      '',
    ]);

    const refused = await admin
      .applyDefinition(environment, {
        missions: [{ key: 'm', name: 'M', objectives: [{ key: 'o', event: 'boss_kiled' }] }],
      })
      .catch((err: { code: string; body: { errors: { meta: unknown }[] } }) => [
        err.code,
        err.body.errors[0]?.meta,
      ]);
    expect(refused).toEqual([
      'definition.unknown_event',
      { path: 'missions.0.objectives.0.event', name: 'boss_kiled', closest: ['boss_killed'] },
    ]);
  });
});

describe('the JSON Schema of the environment file', () => {
  it('is served without a token and listed in the OpenAPI document', async () => {
    const res = await controlPlane.app.inject({ url: '/schemas/environment.json' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/schema\+json/);
    expect(res.json().$defs.EnvironmentFile.additionalProperties).toBe(false);
    const openapi = await controlPlane.app.inject({ url: '/openapi.json' });
    expect(openapi.json().paths['/schemas/environment.json'].get.security).toEqual([]);
  });
});
