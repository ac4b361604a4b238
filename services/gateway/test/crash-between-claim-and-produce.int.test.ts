import { createTenant, schemaPool, startStack, TEST_ADMIN_TOKEN, type TestStack } from '@engage/testkit';
import type { Pool } from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readAcceptedEvents } from './support.ts';

let stack: TestStack;
let pool: Pool;

beforeAll(async () => {
  // A key left pending by a dead gateway is produced again by a retry after 500 ms.
  stack = await startStack({ services: ['gateway'], env: { IDEMPOTENCY_PENDING_TIMEOUT_MS: '500' } });
  pool = schemaPool('gateway');
});
afterAll(async () => {
  await stack?.stop();
  await pool?.end();
});

const ITEMS = 1_000;
const MAX_ATTEMPTS = 5;

/** Posts a keyed batch on a new environment and SIGKILLs the gateway the moment its claims commit. */
async function claimThenKill() {
  const tenant = await createTenant(stack.controlPlaneUrl, TEST_ADMIN_TOKEN, {
    definition: { events: [{ key: 'crashed', properties: { n: { type: 'number' } } }] },
  });
  const environmentId = tenant.live.environmentId;
  const body = JSON.stringify({
    events: Array.from({ length: ITEMS }, (_, i) => ({
      eventKey: 'crashed',
      playerId: `player-${i}`,
      properties: { n: i },
      idempotencyKey: `key-${i}`,
    })),
  });
  const post = () =>
    fetch(`${stack.gatewayUrl}/v1/events`, {
      method: 'POST',
      headers: { authorization: tenant.live.apiKey, 'content-type': 'application/json' },
      body,
    });

  const first = post().catch(() => undefined);
  for (;;) {
    const { rows } = await pool.query(
      'SELECT 1 FROM event_idempotency_keys WHERE environment_id = $1 LIMIT 1',
      [environmentId],
    );
    if (rows.length > 0) break;
  }
  await stack.services.gateway!.kill('SIGKILL');
  await first;
  const claimed = new Map(
    (
      await pool.query<{ idempotency_key: string; event_id: string; state: string }>(
        'SELECT idempotency_key, event_id, state FROM event_idempotency_keys WHERE environment_id = $1',
        [environmentId],
      )
    ).rows.map((r) => [r.idempotency_key, r]),
  );
  return { environmentId, claimed, post };
}

describe('gateway killed between claiming idempotency keys and producing', () => {
  it('a retry answers the claimed eventIds and the topic holds each key under that eventId only', async () => {
    // The kill must land after the claims commit and before the produce ends: a window of a few
    // milliseconds, so an attempt whose kill came after the produce is made again on a new environment.
    let attempt: Awaited<ReturnType<typeof claimThenKill>> | undefined;
    for (let tries = 0; tries < MAX_ATTEMPTS && !attempt; tries++) {
      const made = await claimThenKill();
      expect(made.claimed.size).toBe(ITEMS);
      if ([...made.claimed.values()].some((r) => r.state === 'pending')) attempt = made;
      else await stack.services.gateway!.restart();
    }
    if (!attempt) throw new Error(`no kill landed between claim and produce in ${MAX_ATTEMPTS} attempts`);
    const { environmentId, claimed, post } = attempt;

    await stack.services.gateway!.restart();
    const retry = await post();
    expect(retry.status).toBe(200);
    const answer = (await retry.json()) as { accepted: number; results: { eventId: string }[] };
    expect(answer.accepted).toBe(ITEMS);
    expect(answer.results.map((r) => r.eventId)).toEqual(
      Array.from({ length: ITEMS }, (_, i) => claimed.get(`key-${i}`)!.event_id),
    );

    const records = await readAcceptedEvents(stack.topicPrefix, environmentId);
    const idsByKey = new Map<string, Set<string>>();
    for (const r of records) {
      const ids = idsByKey.get(r.idempotencyKey!) ?? new Set<string>();
      ids.add(r.eventId);
      idsByKey.set(r.idempotencyKey!, ids);
    }
    expect(idsByKey.size).toBe(ITEMS);
    for (const [key, ids] of idsByKey) expect([...ids]).toEqual([claimed.get(key)!.event_id]);
    const { rows } = await pool.query(
      `SELECT count(*)::int AS n FROM event_idempotency_keys WHERE environment_id = $1 AND state = 'committed'`,
      [environmentId],
    );
    expect(rows[0].n).toBe(ITEMS);
  });
});
