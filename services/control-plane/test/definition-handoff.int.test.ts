import { InternalSigner } from '@engage/kit';
import {
  createTenant,
  type SectionOwner,
  startSectionOwner,
  TEST_INTERNAL_AUTH_SECRET,
} from '@engage/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  applyEnvironmentFile,
  type DefinitionDeps,
  readEnvironmentFile,
} from '../src/application/environment-file.ts';
import { createUpstreams } from '../src/upstreams/upstreams.ts';
import { type InProcessControlPlane, startControlPlane } from './support.ts';

// Two sections owned by other services, as rules and ledger will declare them.
const sections = {
  discovery: { owner: 'gateway' },
  events: { owner: 'gateway' },
  missions: { owner: 'rules' },
  marketplace: { owner: 'ledger' },
} as const;

let controlPlane: InProcessControlPlane;
let rules: SectionOwner;
let ledger: SectionOwner;
let deps: DefinitionDeps;

beforeAll(async () => {
  controlPlane = await startControlPlane();
  rules = await startSectionOwner();
  ledger = await startSectionOwner({
    refuse: (_section, value) =>
      (value as { key: string }[]).some((item) => item.key === 'refused')
        ? [
            {
              code: 'validation.marketplace',
              message: 'Item refused is not sellable.',
              meta: { key: 'refused' },
            },
          ]
        : undefined,
  });
  const log = controlPlane.app.log as DefinitionDeps['log'];
  deps = {
    pool: controlPlane.pool,
    log,
    upstreams: createUpstreams(
      { gateway: controlPlane.gatewayUrl, rules: rules.url, ledger: ledger.url, query: 'http://127.0.0.1:9' },
      new InternalSigner(TEST_INTERNAL_AUTH_SECRET),
    ),
    sections,
  };
});
afterAll(async () => {
  await deps?.upstreams.close();
  await Promise.all([controlPlane?.close(), rules?.close(), ledger?.close()]);
});

const file = (marketplace: { key: string }[]) => ({
  version: 1 as const,
  events: [{ key: 'level_completed', active: true, properties: {} }],
  // The controlPlane checks the events a mission names before handing the section over.
  missions: [
    {
      key: 'm1',
      objectives: [{ key: 'o', event: 'level_completed', filters: [], measure: { kind: 'count' } }],
    },
  ],
  marketplace,
});

describe('environment file hand-off to the owning services', () => {
  it('dry-runs every section, then applies each with its owner and merges the differences', async () => {
    const tenant = await createTenant(controlPlane.url);
    const environmentId = tenant.live.environmentId;
    const diff = await applyEnvironmentFile(deps, environmentId, file([{ key: 'sword' }]) as never, {
      dryRun: false,
    });
    expect(diff?.changes.map((c) => `${c.section}:${c.key}:${c.change}`)).toEqual([
      'events:level_completed:created',
      'missions:m1:created',
      'marketplace:sword:created',
    ]);
    const mine = (calls: SectionOwner['calls']) => calls.filter((c) => c.environmentId === environmentId);
    expect(mine(rules.calls).map((c) => c.dryRun)).toEqual([true, false]);
    expect(mine(ledger.calls)[0]).toMatchObject({
      section: 'marketplace',
      organizationId: tenant.organizationId,
    });

    const read = await readEnvironmentFile(deps, environmentId);
    expect(read).toMatchObject({ missions: [{ key: 'm1' }], marketplace: [{ key: 'sword' }] });
    expect((read as { events: unknown[] }).events).toHaveLength(1);

    const again = await applyEnvironmentFile(deps, environmentId, file([{ key: 'sword' }]) as never, {
      dryRun: false,
    });
    expect(again?.changed).toBe(false);
  });

  it('refuses the whole file when one owner refuses its section: nothing is written anywhere', async () => {
    const tenant = await createTenant(controlPlane.url);
    const environmentId = tenant.live.environmentId;
    await expect(
      applyEnvironmentFile(deps, environmentId, file([{ key: 'refused' }]) as never, { dryRun: false }),
    ).rejects.toMatchObject({
      status: 400,
      errors: [{ code: 'validation.marketplace', meta: { section: 'marketplace' } }],
    });
    expect(rules.calls.filter((c) => c.environmentId === environmentId).map((c) => c.dryRun)).toEqual([true]);
    const { rows } = await controlPlane.pool.query(
      'SELECT 1 FROM event_definitions WHERE environment_id = $1',
      [environmentId],
    );
    expect(rows).toEqual([]);
  });

  it('answers a retryable 500 when an owner does not answer', async () => {
    const tenant = await createTenant(controlPlane.url);
    const down = { ...deps, sections: { ...sections, leaderboards: { owner: 'query' } } } as DefinitionDeps;
    await expect(
      applyEnvironmentFile(down, tenant.live.environmentId, { version: 1, leaderboards: [] } as never, {
        dryRun: true,
      }),
    ).rejects.toMatchObject({ status: 500, code: 'server.unexpected' });
  });
});
