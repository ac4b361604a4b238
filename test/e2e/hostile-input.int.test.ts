import { STATUS_CODES } from 'node:http';
import { ProblemDocumentSchema } from '@engage/contracts';
import {
  createTenant,
  type RawAnswer,
  rawHttp,
  stackConfig,
  startStack,
  TEST_ADMIN_TOKEN,
  type Tenant,
  type TestStack,
} from '@engage/testkit';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadOpenApi, type Operation } from './support/openapi.ts';
import { type Vocabulary, valid } from './support/schema-arbitrary.ts';

/**
 * Every operation of docs/openapi.json, sent hostile input against the four running services: one
 * hostile value per request, in a path parameter, a query parameter, a header or a body field
 * (U+0000, unpaired surrogates, huge and odd values, bad percent-encodings, bytes that are not
 * UTF-8). No answer is a 5xx; every byte answered is UTF-8; every refusal is a problem document of
 * the contract's shape that names no framework and repeats no path; text that cannot be stored is
 * refused wherever it was put. The seed is printed; HOSTILE_SEED=<seed> replays a run.
 */
const SEED = Number(process.env.HOSTILE_SEED ?? Math.floor(Math.random() * 2 ** 31));
const RUNS_PER_OPERATION = 100;

const { operations, resolve } = loadOpenApi(stackConfig().repoRoot);

/** Text PostgreSQL cannot store (U+0000) or that has no UTF-8 form (an unpaired surrogate). */
const UNREPRESENTABLE = ['\u0000', 'bad\u0000name', '\ud800', 'k\udbff', '\udc00k', '\udfff\ud800'];
/** Text that is strange but storable. */
const ODD_TEXT = [
  '',
  ' ',
  '\ufffd',
  '\uffff',
  '\ud83d\ude00',
  '\u202eevil',
  'e\u0301',
  '\u0001\u001f\u007f',
  '__proto__',
  'constructor',
  '..',
  '%',
  '%zz',
  "'; DROP TABLE players; --",
  '{"a":1}',
  'x'.repeat(5_000),
];
/** JSON values (as text) that are valid JSON but odd for any field. */
const ODD_JSON = [
  '1e400',
  '-0',
  '123456789012345678901234567890.123456789',
  '-1',
  '2147483648',
  'null',
  'true',
  '[]',
  '{}',
  '{"__proto__":{"polluted":1}}',
  `"${'y'.repeat(200_000)}"`,
  `${'['.repeat(5_000)}${']'.repeat(5_000)}`,
];
/** Percent-encodings a URL decoder must refuse (truncated, not hex, overlong NUL, a surrogate, not UTF-8). */
const BAD_ENCODINGS = ['%', '%zz', '%E0%A4%A', '%C0%80', '%ED%A0%80', '%FF', '%F4%90%80%80'];

/** Percent-encodes each UTF-16 unit as UTF-8 would, a lone surrogate included (as a careless client does). */
function percentEncode(text: string): string {
  let out = '';
  for (const char of text) {
    const unit = char.codePointAt(0)!;
    if (unit >= 0xd800 && unit <= 0xdfff) {
      out += [0xe0 | (unit >> 12), 0x80 | ((unit >> 6) & 0x3f), 0x80 | (unit & 0x3f)]
        .map((b) => `%${b.toString(16).toUpperCase()}`)
        .join('');
    } else out += encodeURIComponent(char);
  }
  return out;
}

/** Where the hostile value goes, and what it is. */
type Injection =
  | { in: 'path' | 'query'; name: string; encoded: string; unrepresentable: boolean }
  | { in: 'header'; name: string; value: string }
  | { in: 'body'; path: (string | number)[]; json: string; unrepresentable: boolean }
  | { in: 'raw-body'; bytes: Buffer }
  | { in: 'absolute-form' };

const text = fc.oneof(
  fc.constantFrom(...UNREPRESENTABLE).map((value) => ({ value, unrepresentable: true })),
  fc.constantFrom(...ODD_TEXT).map((value) => ({ value, unrepresentable: false })),
  fc.string({ unit: 'binary', maxLength: 12 }).map((value) => ({
    value,
    unrepresentable: !value.isWellFormed() || value.includes('\u0000'),
  })),
);

/** A value for a path or query parameter, percent-encoded or encoded badly. */
const parameterValue = fc.oneof(
  text.map(({ value }) => ({
    encoded: percentEncode(value),
    // A surrogate cannot be percent-encoded as UTF-8: it arrives as invalid UTF-8, refused or kept as is.
    unrepresentable: value.includes('\u0000'),
  })),
  fc.constantFrom(...BAD_ENCODINGS).map((encoded) => ({ encoded, unrepresentable: false })),
  fc.constant({ encoded: 'p'.repeat(600), unrepresentable: false }),
  fc.constant({ encoded: '\u00ff\u00e9', unrepresentable: false }), // raw bytes 0xFF 0xE9 in the target
);

const headerInjection = fc.record({
  in: fc.constant('header' as const),
  name: fc.constantFrom('authorization', 'content-type', 'traceparent', 'idempotency-key', 'x-hostile'),
  value: fc.constantFrom(
    'a\u0000b',
    'a\rb',
    '\u00ff\u00fe\u00e9',
    'z'.repeat(20_000),
    'application/json; charset=utf-16',
    'text/plain',
    '00-zzzz-zzzz-01',
    '',
    'Bearer \u00ffeng_live_x',
  ),
});

function injections(op: Operation, body: unknown): fc.Arbitrary<Injection> {
  const choices: fc.Arbitrary<Injection>[] = [
    headerInjection,
    // The request target as an absolute URL (`GET http://host/v1/...`), as proxies send it.
    fc.constant({ in: 'absolute-form' as const }),
  ];
  const pathParams = op.parameters.filter((p) => p.in === 'path').map((p) => p.name);
  if (pathParams.length > 0) {
    choices.push(
      fc
        .tuple(fc.constantFrom(...pathParams), parameterValue)
        .map(([name, v]) => ({ in: 'path' as const, name, ...v })),
    );
  }
  const queryNames = [...op.parameters.filter((p) => p.in === 'query').map((p) => p.name), 'Extra'];
  choices.push(
    fc
      .tuple(fc.constantFrom(...queryNames), parameterValue)
      .map(([name, v]) => ({ in: 'query' as const, name, ...v })),
  );
  if (op.body) {
    const places = placesIn(body);
    choices.push(
      fc
        .tuple(
          fc.constantFrom(...places),
          fc.oneof(
            text.map(({ value, unrepresentable }) => ({ json: JSON.stringify(value), unrepresentable })),
            fc.constantFrom(...ODD_JSON).map((json) => ({ json, unrepresentable: false })),
          ),
        )
        .map(([path, v]) => ({ in: 'body' as const, path, ...v })),
      fc
        .constantFrom(
          Buffer.from([0x7b, 0x22, 0xed, 0xa0, 0x80, 0x22, 0x3a, 0x31, 0x7d]), // {"<CESU surrogate>":1}
          Buffer.from([0xef, 0xbb, 0xbf, 0x7b, 0x7d]), // a byte order mark, then {}
          Buffer.from('{"playerId":'),
          Buffer.from([0xff, 0xfe, 0x7b, 0x00, 0x7d, 0x00]), // UTF-16
        )
        .map((bytes) => ({ in: 'raw-body' as const, bytes })),
    );
  }
  return fc.oneof(...choices);
}

/** Every place in a generated body where a value can be replaced, and a new field beside each object's. */
function placesIn(body: unknown): (string | number)[][] {
  const places: (string | number)[][] = [['hostileExtra']];
  const walk = (value: unknown, path: (string | number)[]) => {
    if (path.length > 0) places.push(path);
    if (Array.isArray(value)) {
      value.forEach((v, i) => {
        walk(v, [...path, i]);
      });
    } else if (value && typeof value === 'object') {
      if (path.length > 0) places.push([...path, 'hostileExtra']);
      for (const [k, v] of Object.entries(value)) walk(v, [...path, k]);
    }
  };
  walk(body, []);
  return places;
}

const PLACEHOLDER = '\u0001hostile\u0001';

function bodyText(body: unknown, injection: Injection): Buffer {
  if (injection.in === 'raw-body') return injection.bytes;
  if (injection.in !== 'body') return Buffer.from(JSON.stringify(body));
  // Through JSON, not structuredClone: a generated body may share one object in two places.
  const copy = JSON.parse(JSON.stringify(body)) as Record<string | number, unknown>;
  let node = copy;
  for (const segment of injection.path.slice(0, -1)) node = node[segment] as typeof node;
  node[injection.path.at(-1)!] = PLACEHOLDER;
  return Buffer.from(JSON.stringify(copy).replace(JSON.stringify(PLACEHOLDER), () => injection.json));
}

interface Sent {
  target: string;
  answer: RawAnswer;
}

async function send(
  gatewayUrl: string,
  op: Operation,
  credential: string,
  body: unknown,
  injection: Injection,
  vocabulary: Vocabulary,
): Promise<Sent> {
  let path = op.path;
  for (const p of op.parameters.filter((p) => p.in === 'path')) {
    const value =
      injection.in === 'path' && injection.name === p.name
        ? injection.encoded
        : encodeURIComponent(String(vocabulary[p.name]?.[0] ?? 'x'));
    path = path.replace(`{${p.name}}`, value);
  }
  const query = op.parameters
    .filter((p) => p.in === 'query' && p.required)
    .map((p) => `${p.name}=${encodeURIComponent(String(vocabulary[p.name]?.[0] ?? 'x'))}`);
  if (injection.in === 'query') query.push(`${injection.name}=${injection.encoded}`);
  const origin = injection.in === 'absolute-form' ? 'http://127.0.0.1' : '';
  const target = `${origin}${path}${query.length > 0 ? `?${query.join('&')}` : ''}`;
  const headers: Record<string, string> = {
    host: '127.0.0.1',
    authorization: `Bearer ${credential}`,
    connection: 'close',
  };
  let payload: Buffer | undefined;
  if (op.body) {
    payload = bodyText(body, injection);
    headers['content-type'] = 'application/json';
    headers['content-length'] = String(payload.length);
  }
  if (injection.in === 'header') headers[injection.name] = injection.value;
  const head = `${op.method} ${target} HTTP/1.1\r\n${Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('')}\r\n`;
  const request = Buffer.concat([Buffer.from(head, 'latin1'), payload ?? Buffer.alloc(0)]);
  return { target, answer: await rawHttp(gatewayUrl, request) };
}

/** What is wrong with an answer; empty when it keeps every promise. */
function faultsOf(op: Operation, injection: Injection, { target, answer }: Sent): string[] {
  const faults: string[] = [];
  if (answer.status >= 500) faults.push(`status ${answer.status}`);
  if (answer.status === 204) {
    return answer.body.length > 0 ? [...faults, 'a 204 answer carries a body'] : faults;
  }
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(answer.body);
  } catch {
    return [...faults, 'the answer is not UTF-8'];
  }
  if (/FST_|Client Error|not a valid url component/.test(text)) faults.push('the answer names the framework');
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return [...faults, `the answer is not JSON: ${text.slice(0, 200)}`];
  }
  if (answer.status >= 300) {
    if (!answer.headers['content-type']?.startsWith('application/problem+json')) {
      faults.push(`media type ${answer.headers['content-type']}`);
    }
    const parsed = ProblemDocumentSchema.safeParse(json);
    if (!parsed.success) return [...faults, `not a problem document: ${text.slice(0, 300)}`];
    const doc = parsed.data;
    if (doc.status !== answer.status || doc.title !== STATUS_CODES[answer.status]) {
      faults.push(`status ${doc.status} / title ${doc.title} for ${answer.status}`);
    }
    if (doc.code !== doc.errors[0]?.code) faults.push('code is not the first error code');
    const path = target.split('?')[0]!;
    if ([doc.detail, ...doc.errors.map((e) => e.message)].some((m) => m.includes(path))) {
      faults.push('a message repeats the path');
    }
  }
  if ('unrepresentable' in injection && injection.unrepresentable) {
    const refused = refusesText(op, injection, answer.status, json);
    if (!refused) faults.push(`text that cannot be stored was not refused: ${text.slice(0, 1000)}`);
  }
  if (injection.in === 'header' && /[\0\r]/.test(injection.value) && answer.status !== 400) {
    faults.push('a header the HTTP parser must refuse was taken');
  }
  return faults;
}

/** Refused where it was put: a 400 naming it, or for an item of an event batch, that item alone. */
function refusesText(op: Operation, injection: Injection, status: number, json: unknown): boolean {
  const reasons = (errors: { meta?: { reason?: unknown } }[] | undefined) =>
    (errors ?? []).map((e) => e.meta?.reason);
  const at = injection.in === 'body' ? injection.path : [];
  const item = at[0] === 'events' ? at[1] : undefined;
  if (op.path === '/v1/events' && typeof item === 'number' && status === 200) {
    const result = (json as { results: { accepted: boolean; errors: { meta?: { reason?: unknown } }[] }[] })
      .results[item];
    // An item replaced whole by such text is not an object, and is refused as such.
    const named = at.length === 2 || reasons(result?.errors).includes('unrepresentable_text');
    return result?.accepted === false && named;
  }
  if (status !== 400) return false;
  return reasons((json as { errors?: { meta?: { reason?: unknown } }[] }).errors).includes(
    'unrepresentable_text',
  );
}

describe('hostile input to every operation of the OpenAPI document', () => {
  let stack: TestStack;
  let tenant: Tenant;
  const vocabulary: Vocabulary = {
    PlayerId: ['hostile-1'],
    playerId: ['hostile-1'],
    eventKey: ['level_completed'],
    properties: [{ level: 3, name: 'ok' }],
  };

  beforeAll(async () => {
    console.log(`hostile input seed ${SEED} (replay: HOSTILE_SEED=${SEED})`);
    stack = await startStack();
    tenant = await createTenant(stack.controlPlaneUrl, TEST_ADMIN_TOKEN, { definition: { discovery: true } });
    vocabulary.environmentId = [tenant.sandbox.environmentId];
    vocabulary.organizationId = [tenant.organizationId];
  }, 120_000);
  afterAll(async () => {
    await stack?.stop();
  });

  it('covers every operation', () => {
    expect(operations.length).toBeGreaterThanOrEqual(14);
  });

  it.each(operations.map((op) => [`${op.method} ${op.path}`, op] as const))(
    '%s: no 5xx, a problem document for every refusal, unstorable text refused',
    async (_, op) => {
      const credential = op.security.includes('adminToken') ? TEST_ADMIN_TOKEN : tenant.live.apiKey;
      const bodies = op.body ? valid(op.body, resolve, vocabulary) : fc.constant(undefined);
      const requests = bodies.chain((body) => fc.tuple(fc.constant(body), injections(op, body)));
      await fc.assert(
        fc.asyncProperty(requests, async ([body, injection]) => {
          const sent = await send(stack.gatewayUrl, op, credential, body, injection, vocabulary);
          const faults = faultsOf(op, injection, sent);
          if (faults.length > 0) {
            const shown = JSON.stringify(injection, (_k, v) =>
              typeof v === 'string' && v.length > 80 ? `${v.slice(0, 80)}…(${v.length})` : v,
            );
            throw new Error(
              `${op.method} ${sent.target.slice(0, 200)} ${shown} → ${sent.answer.status}\n${faults.join('\n')}`,
            );
          }
        }),
        { seed: SEED, numRuns: RUNS_PER_OPERATION, endOnFailure: true },
      );
    },
  );
});
