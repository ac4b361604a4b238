import type { EnvironmentFileInput } from '@engage/contracts/environment-file.ts';
import {
  createTenant,
  stackConfig,
  startStack,
  TEST_ADMIN_TOKEN,
  type Tenant,
  type TestStack,
} from '@engage/testkit';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVERY_SECTION } from './support/every-section.ts';
import { loadOpenApi, type Operation } from './support/openapi.ts';
import { invalid, preferKnown, type Vocabulary, valid } from './support/schema-arbitrary.ts';

/**
 * Every operation of docs/openapi.json, driven with generated valid and invalid input against the
 * four running services: no answer is a 5xx, and every answer (status, media type, body) is one
 * the document declares for that operation.
 */
const RUNS = 20;
/** What an answer must never show: stack frames, module paths, driver errors, internal routes. */
const INTERNALS =
  /\.ts:\d+|node_modules|node:internal|ECONN[A-Z]+|SQLSTATE|relation "|\/internal\/v1|KafkaJS/;
const { operations, resolve, check } = loadOpenApi(stackConfig().repoRoot);

/** The operations on the invitations addressed to the signed-in operator. */
const ADDRESSED_TO_THE_CALLER = /^\/admin\/v1\/invitations(\/\{invitationId\}\/(accept|decline))?$/;

/** The player the tenant's definitions and balance are set up for; generated ids mostly name them. */
const PLAYERS = ['fuzz-1', 'fuzz-2'];

/** One of everything, so that valid input can reach each operation's success answer. */
const DEFINITION: EnvironmentFileInput = {
  discovery: true,
  events: [
    { key: 'level_completed', active: true, properties: { level: { type: 'number', required: true } } },
  ],
  playerAttributes: [
    { key: 'tier', type: 'string' },
    { key: 'level', type: 'number' },
  ],
  ...EVERY_SECTION,
};

/** What the generators mostly pick for a parameter or body property of this name. */
const VOCABULARY: Vocabulary = {
  PlayerId: PLAYERS,
  playerId: PLAYERS,
  PlayerIds: [PLAYERS],
  LanguageCode: ['en', 'fr'],
  languageCode: ['en', 'fr'],
  Top: [3, 10],
  Around: [2, 5],
  Take: [5, 50],
  missionKey: ['three-levels', 'opt-in'],
  collectionKey: ['season', 'royal'],
  marketplaceItemKey: ['crown'],
  leaderboardKey: ['levels'],
  streakKey: ['daily-play'],
  eventKey: ['level_completed'],
  properties: [{ level: 3 }, { level: 12.5 }],
  attributes: [{ tier: 'gold' }, { tier: 'silver', level: 4 }],
  timeZone: ['Europe/Paris', 'America/New_York', 'UTC'],
  amount: [5, 100],
  expectedPriceInPoints: [1],
  // Webhook endpoints: a loopback port nothing listens on (the stack allows insecure URLs), so the
  // deliveries the run queues fail at once without leaving the machine.
  url: ['http://127.0.0.1:9/fuzz'],
  eventTypes: [['points.adjusted'], ['mission.completed', 'leaderboard.rank_reached']],
  overlapSeconds: [0, 3600],
};

/** The operators the admin operations act on: one signs in, one holds the console session, one is changed. */
const OWNER = { email: 'fuzz-owner@example.test', password: 'owner of the fuzzed stack' };
const SESSION_HOLDER = { email: 'fuzz-session@example.test', password: 'holder of the fuzzed session' };
const TARGET = { email: 'fuzz-target@example.test', password: 'target of the fuzzed roles', role: 'viewer' };

/** Values for one operation only, where the same property name means different things elsewhere. */
const VOCABULARY_OF: Record<string, Vocabulary> = {
  'POST /admin/v1/session': { email: [OWNER.email], password: [OWNER.password] },
  'POST /admin/v1/organizations/{organizationId}/invitations': {
    email: Array.from({ length: 40 }, (_, i) => `fuzz-new-${i}@example.test`),
  },
};
const vocabularyOf = (op: Operation): Vocabulary => ({
  ...VOCABULARY,
  ...VOCABULARY_OF[`${op.method} ${op.path}`],
});

interface GeneratedRequest {
  path: string;
  query: [string, string][];
  headers?: Record<string, string>;
  body?: unknown;
}

/** What a URL parser removes from a path instead of sending it (RFC 3986, WHATWG URL). */
const isDotSegment = (value: string) => /^(\.|%2e){1,2}$/i.test(value);

function requests(op: Operation, mode: 'valid' | 'invalid'): fc.Arbitrary<GeneratedRequest> {
  // An empty path segment would address another route (`/v1/streaks/` is the list), and so would the
  // dot segments `.` and `..`, which every URL parser removes before sending (`/v1/streaks/.` is sent
  // as the list): path parameters are never empty or a dot segment, even when invalid.
  const param = (name: string, schema: Parameters<typeof valid>[0], minLength = 0) =>
    mode === 'valid'
      ? preferKnown(vocabularyOf(op)[name], valid(schema, resolve))
      : fc.oneof(valid(schema, resolve), fc.string({ minLength, maxLength: 20 }));
  const pathParams = op.parameters.filter((p) => p.in === 'path');
  const queryParams = op.parameters.filter((p) => p.in === 'query');
  const path = fc
    .tuple(...pathParams.map((p) => param(p.name, p.schema, 1).filter((v) => !isDotSegment(String(v)))))
    .map((values) =>
      pathParams.reduce(
        (path, p, i) => path.replace(`{${p.name}}`, encodeURIComponent(String(values[i]))),
        op.path,
      ),
    );
  const query = fc
    .tuple(
      ...queryParams.map((p) =>
        p.required && mode === 'valid'
          ? param(p.name, p.schema)
          : fc.option(param(p.name, p.schema), { nil: undefined }),
      ),
    )
    .map((values) =>
      queryParams.flatMap((p, i): [string, string][] => {
        const value = values[i];
        if (value === undefined) return [];
        return (Array.isArray(value) ? value : [value]).map((v) => [p.name, String(v)]);
      }),
    );
  // Header parameters (an idempotency key) are printable ASCII: a fresh one each time, or none when invalid.
  const headerParams = op.parameters.filter((p) => p.in === 'header');
  const headers = fc
    .tuple(
      ...headerParams.map((p) =>
        p.required && mode === 'valid' ? fc.uuid() : fc.option(fc.uuid(), { nil: undefined }),
      ),
    )
    .map((values) =>
      Object.fromEntries(
        headerParams.flatMap((p, i) => (values[i] === undefined ? [] : [[p.name, values[i]!]])),
      ),
    );
  const body = op.body
    ? mode === 'valid'
      ? valid(op.body, resolve, vocabularyOf(op))
      : invalid(op.body, resolve)
    : fc.constant(undefined);
  return fc.record({ path, query, headers, body });
}

describe('fuzzing every operation of the OpenAPI document', () => {
  let stack: TestStack;
  let tenant: Tenant;

  beforeAll(async () => {
    // Every valid sign-in of the run is counted: the limits stay out of the way of reaching success.
    stack = await startStack({
      env: {
        SIGN_IN_FREE_FAILURES_PER_ACCOUNT: '1000',
        SIGN_IN_FREE_FAILURES_PER_ADDRESS: '1000',
        WEBHOOK_ALLOW_INSECURE_URLS: 'true',
      },
    });
    tenant = await createTenant(stack.controlPlaneUrl, TEST_ADMIN_TOKEN, { definition: DEFINITION });
    // Admin operations name an environment: the Sandbox (settling a Live board is refused) or the
    // Live one, where the players below are credited.
    VOCABULARY.environmentId = [tenant.sandbox.environmentId, tenant.live.environmentId];
    VOCABULARY.organizationId = [tenant.organizationId];
    VOCABULARY.projectId = [tenant.projectId];
    // Writes that would change what the other operations rely on (billing, the cap, definitions,
    // keys) act on a second tenant of their own.
    const spare = await createTenant(stack.controlPlaneUrl, TEST_ADMIN_TOKEN, { definition: DEFINITION });
    const spareKey = await fetch(
      `${stack.controlPlaneUrl}/admin/v1/environments/${spare.sandbox.environmentId}/api-keys`,
      {
        method: 'POST',
        headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, 'content-type': 'application/json' },
        body: '{}',
      },
    );
    VOCABULARY_OF['PATCH /admin/v1/organizations/{organizationId}'] = {
      organizationId: [spare.organizationId],
    };
    VOCABULARY_OF['DELETE /admin/v1/api-keys/{apiKeyId}'] = {
      apiKeyId: [((await spareKey.json()) as { apiKeyId: string }).apiKeyId],
    };
    VOCABULARY_OF['PUT /admin/v1/environments/{environmentId}/definition'] = {
      environmentId: [spare.sandbox.environmentId, spare.live.environmentId],
      // The file as it is, so that a valid apply succeeds (unchanged) rather than name unknown events.
      ...Object.fromEntries(Object.entries(DEFINITION).map(([section, value]) => [section, [value]])),
    };
    // A webhook endpoint with a delivery (its ping) for the webhook operations, and spares to delete.
    const webhookOf = async (environmentId: string) => {
      const created = await adminWrite(`/environments/${environmentId}/webhooks`, {
        url: 'http://127.0.0.1:9/fuzz',
        eventTypes: ['points.adjusted'],
      });
      return created.id as string;
    };
    const webhookId = await webhookOf(tenant.sandbox.environmentId);
    VOCABULARY.webhookId = [webhookId];
    VOCABULARY.deliveryId = [(await adminWrite(`/webhooks/${webhookId}/ping`)).id as string];
    VOCABULARY_OF['DELETE /admin/v1/webhooks/{webhookId}'] = {
      webhookId: [await webhookOf(spare.sandbox.environmentId), await webhookOf(spare.live.environmentId)],
    };
    // Operators join by invitation, accepted with its token.
    const invite = (organizationId: string, email: string, role = 'viewer') =>
      adminWrite(`/organizations/${organizationId}/invitations`, { email, role });
    const acceptWithToken = async (token: string, password: string) => {
      const res = await fetch(`${stack.controlPlaneUrl}/admin/v1/invitations/accept`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ token, password }),
      });
      expect(res.status, await res.clone().text()).toBe(200);
    };
    for (const operator of [{ ...OWNER, role: 'owner' }, { ...SESSION_HOLDER, role: 'viewer' }, TARGET]) {
      const { token } = await invite(tenant.organizationId, operator.email, operator.role);
      await acceptWithToken(token, operator.password);
    }
    const members = await fetch(
      `${stack.controlPlaneUrl}/admin/v1/organizations/${tenant.organizationId}/operators`,
      {
        headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
      },
    );
    const { operators } = (await members.json()) as { operators: { email: string; operatorId: string }[] };
    VOCABULARY.operatorId = [operators.find((o) => o.email === TARGET.email)!.operatorId];
    // Invitations to revoke, and for the session's operator to accept and to decline (each in an
    // organization of its own: a new invitation of an email replaces its pending one there).
    VOCABULARY_OF['DELETE /admin/v1/organizations/{organizationId}/invitations/{invitationId}'] = {
      organizationId: [spare.organizationId],
      invitationId: await Promise.all(
        [0, 1].map(
          async (i) => (await invite(spare.organizationId, `fuzz-revoked-${i}@example.test`)).invitationId,
        ),
      ),
    };
    const third = await adminWrite('/organizations', { name: 'fuzz invitations' });
    VOCABULARY_OF['POST /admin/v1/invitations/{invitationId}/accept'] = {
      invitationId: [(await invite(spare.organizationId, SESSION_HOLDER.email)).invitationId],
    };
    VOCABULARY_OF['POST /admin/v1/invitations/{invitationId}/decline'] = {
      invitationId: [(await invite(third.organizationId, SESSION_HOLDER.email)).invitationId],
    };
    VOCABULARY_OF['POST /admin/v1/invitations/accept'] = {
      token: await Promise.all(
        [0, 1, 2].map(
          async (i) => (await invite(spare.organizationId, `fuzz-joining-${i}@example.test`)).token,
        ),
      ),
      password: ['joined through the fuzzed token'],
    };
    for (const playerId of PLAYERS) {
      const credited = await send(operationOf('POST', '/v1/points/adjustments'), {
        path: '/v1/points/adjustments',
        query: [],
        body: { playerId, amount: 1_000_000, reason: 'fuzz budget' },
      });
      expect(credited.status).toBe(200);
    }
  }, 120_000);

  afterAll(async () => {
    await stack?.stop();
  });

  // biome-ignore lint/suspicious/noExplicitAny: the answers of the setup's admin writes
  const adminWrite = async (path: string, body?: unknown): Promise<any> => {
    const res = await fetch(`${stack.controlPlaneUrl}/admin/v1${path}`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${TEST_ADMIN_TOKEN}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    expect(res.status, await res.clone().text()).toBeLessThan(300);
    return res.json();
  };

  /** Success answers to valid input, per operation. */
  const successes = new Map<Operation, number>();

  /** The console session's cookie and CSRF token, signed in again after an operation ends it. */
  let sessionHeaders: Record<string, string> | undefined;
  const signedInHeaders = async () => {
    if (sessionHeaders) return sessionHeaders;
    const res = await fetch(`${stack.controlPlaneUrl}/admin/v1/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(SESSION_HOLDER),
    });
    expect(res.status).toBe(200);
    sessionHeaders = {
      cookie: res.headers.getSetCookie()[0]!.split(';')[0]!,
      'x-csrf-token': ((await res.json()) as { csrfToken: string }).csrfToken,
    };
    return sessionHeaders;
  };

  /**
   * The credential an operation takes: the admin token, a console session, or the tenant's key. The
   * invitations addressed to the caller are reached with the invitee's session: the admin token
   * takes them too, but has none addressed to it.
   */
  const credentialOf = async (op: Operation): Promise<Record<string, string>> => {
    if (ADDRESSED_TO_THE_CALLER.test(op.path)) return signedInHeaders();
    if (op.security.includes('adminToken')) return { authorization: `Bearer ${TEST_ADMIN_TOKEN}` };
    if (op.security.includes('sessionCookie')) return signedInHeaders();
    if (op.path.startsWith('/admin/')) return {};
    return { authorization: `Bearer ${tenant.live.apiKey}` };
  };

  const send = async (op: Operation, request: GeneratedRequest) => {
    // The admin API is the control plane's; everything else the gateway's.
    const host = op.path.startsWith('/admin/') ? stack.controlPlaneUrl : stack.gatewayUrl;
    const url = new URL(`${host}${request.path}`);
    for (const [name, value] of request.query) url.searchParams.append(name, value);
    const res = await fetch(url, {
      method: op.method,
      headers: {
        ...(await credentialOf(op)),
        ...request.headers,
        ...(request.body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: request.body === undefined ? undefined : JSON.stringify(request.body),
    });
    if (op.method === 'DELETE' && op.path === '/admin/v1/session') sessionHeaders = undefined;
    const mediaType = (res.headers.get('content-type') ?? '').split(';')[0]!.trim();
    return { status: res.status, mediaType, body: await res.text() };
  };

  const operationOf = (method: string, path: string) =>
    operations.find((op) => op.method === method && op.path === path)!;

  it('covers every operation of the document, with a checker that refuses undocumented answers', () => {
    expect(operations.length).toBeGreaterThanOrEqual(13);
    const points = operations.find((op) => op.method === 'GET' && op.path === '/v1/points')!;
    expect(
      check(points, 200, 'application/json', '{"playerId":"p","balance":1,"updatedAtUtc":null}'),
    ).toEqual([]);
    expect(check(points, 418, 'application/json', '{}')).not.toEqual([]);
    expect(check(points, 200, 'application/json', '{"balance":"one"}')).not.toEqual([]);
    expect(check(points, 400, 'application/problem+json', '{"status":400}')).not.toEqual([]);
  });

  describe.each(operations.map((op) => [`${op.method} ${op.path}`, op] as const))('%s', (_, op) => {
    it.each(['valid', 'invalid'] as const)(
      'answers %s input without a 5xx and as documented',
      async (mode) => {
        await fc.assert(
          fc.asyncProperty(requests(op, mode), async (request) => {
            const answer = await send(op, request);
            if (mode === 'valid' && answer.status < 300) successes.set(op, (successes.get(op) ?? 0) + 1);
            const problems = [
              ...(answer.status >= 500 ? [`${answer.status}: ${answer.body.slice(0, 300)}`] : []),
              ...check(op, answer.status, answer.mediaType, answer.body),
              ...(INTERNALS.test(answer.body)
                ? [`internal detail in the answer: ${answer.body.slice(0, 300)}`]
                : []),
            ];
            if (problems.length > 0) {
              throw new Error(
                `${JSON.stringify(request).slice(0, 600)} → ${answer.status}\n${problems.join('\n')}`,
              );
            }
          }),
          { numRuns: RUNS, endOnFailure: true },
        );
      },
    );
  });

  it('reaches the success answer of every operation with valid input', () => {
    const never = operations.filter((op) => !successes.has(op)).map((op) => `${op.method} ${op.path}`);
    expect(never).toEqual([]);
  });
});
