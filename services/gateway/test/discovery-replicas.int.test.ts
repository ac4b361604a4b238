import {
  createTenant,
  schemaPool,
  startStack,
  TEST_ADMIN_TOKEN,
  type Tenant,
  type TestStack,
} from '@engage/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Two gateway processes, each recording its discoveries through the control plane's internal
 * endpoint: first occurrences of one event property with different types, sent to both at once,
 * are accepted only with the type that was stored.
 */

let stack: TestStack;
let replicaUrl: string;
let tenant: Tenant;
const pool = schemaPool('control_plane');

beforeAll(async () => {
  stack = await startStack({ services: ['gateway'] });
  replicaUrl = (await stack.addReplica('gateway')).url;
  tenant = await createTenant(stack.controlPlaneUrl, TEST_ADMIN_TOKEN, { definition: { discovery: true } });
});
afterAll(async () => {
  await stack?.stop();
  await pool.end();
});

const send = async (url: string, events: unknown[]) => {
  const res = await fetch(`${url}/v1/events`, {
    method: 'POST',
    headers: { authorization: `Bearer ${tenant.sandbox.apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ events }),
  });
  expect(res.status).toBe(200);
  const { results } = (await res.json()) as {
    results: { accepted: boolean; errors: { code: string }[] }[];
  };
  const [result] = results;
  return result!.accepted ? 'accepted' : result!.errors[0]!.code;
};

const storedType = async (eventKey: string, property: string) => {
  const { rows } = await pool.query<{ type: string }>(
    `SELECT properties -> $3 ->> 'type' AS type FROM event_definitions
     WHERE environment_id = $1 AND event_key = $2`,
    [tenant.sandbox.environmentId, eventKey, property],
  );
  return rows[0]?.type;
};

const values = { number: 7, string: 'seven', boolean: true } as const;

describe('discovery on two gateway replicas', () => {
  it('accepts only the stored type of concurrent first occurrences', async () => {
    const kinds = ['number', 'string', 'boolean', 'string', 'number', 'boolean'] as const;
    for (const round of [0, 1, 2]) {
      // A new event, then new properties of an event discovered already.
      const eventKey = round === 0 ? 'raced' : 'raced_again';
      const property = `p${round}`;
      const outcomes = await Promise.all(
        kinds.map((kind, i) =>
          send(i % 2 === 0 ? stack.gatewayUrl : replicaUrl, [
            { eventKey, playerId: `player-${i}`, properties: { [property]: values[kind] } },
          ]),
        ),
      );
      const stored = await storedType(eventKey, property);
      expect(kinds).toContain(stored);
      expect(outcomes).toEqual(
        kinds.map((kind) => (kind === stored ? 'accepted' : 'event.property_type_mismatch')),
      );
    }
  });
});
