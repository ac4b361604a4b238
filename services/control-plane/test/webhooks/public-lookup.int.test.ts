import type { LookupAddress } from 'node:dns';
import { once } from 'node:events';
import { createServer } from 'node:http';
import { type AddressInfo, isIP } from 'node:net';
import { networkInterfaces } from 'node:os';
import { Agent, request } from 'undici';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { PRIVATE_ADDRESS_CODE, publicOnlyLookup } from '../../src/webhooks/public-lookup.ts';

// Without WEBHOOK_ALLOW_PRIVATE_ADDRESSES the worker connects through publicOnlyLookup: a receiver
// whose name resolves to an address that is not public (here a real server on loopback) is refused
// before any byte is sent, on the answer the connection is made with.
const server = createServer((_req, res) => res.writeHead(204).end());
let port: number;
const hits: number[] = [];
server.on('request', () => hits.push(Date.now()));

beforeAll(async () => {
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

/** The error code a POST through `agent` fails with, or undefined when it was answered. */
async function failureOf(agent: Agent, url: string): Promise<string | undefined> {
  try {
    const answer = await request(url, { dispatcher: agent, method: 'POST' });
    await answer.body.dump();
    return undefined;
  } catch (err) {
    const error = err as { code?: string; cause?: { code?: string } };
    return error.code ?? error.cause?.code;
  }
}

const answering =
  (answers: () => string[]) =>
  (
    _hostname: string,
    _options: unknown,
    callback: (err: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void,
  ) =>
    callback(
      null,
      answers().map((address) => ({ address, family: isIP(address) })),
    );

it('refuses to connect to a name that resolves to a private address', async () => {
  const guarded = new Agent({ connect: { lookup: publicOnlyLookup() } });
  expect(await failureOf(guarded, `http://localhost:${port}/hook`)).toBe(PRIVATE_ADDRESS_CODE);
  expect(hits).toEqual([]);
  await guarded.close();

  // The same request without the guard reaches the server: the refusal is the guard's.
  const open = new Agent();
  expect(await failureOf(open, `http://localhost:${port}/hook`)).toBeUndefined();
  await open.close();
  expect(hits).toHaveLength(1);
});

// A name passes the URL check when the endpoint is saved; what it resolves to is judged here, at each
// connection, so a DNS answer that changed since (rebinding) is judged as it is now.
it('refuses every class of refused address a name may resolve to, one code for all', async () => {
  const own = Object.values(networkInterfaces())
    .flatMap((entries) => entries ?? [])
    .map((entry) => entry.address);
  const answers = [
    ['127.0.0.1'],
    ['10.0.0.5', '192.168.0.9'],
    ['169.254.169.254'],
    ['100.64.1.1'],
    ['198.18.0.1'],
    ['203.0.113.9'],
    ['240.0.0.1'],
    ['::ffff:127.0.0.1'],
    ['64:ff9b::7f00:1'],
    ['::127.0.0.1'],
    ['2002:7f00:1::1'],
    ['fd00::1'],
    own,
  ];
  for (const answer of answers) {
    const guarded = new Agent({ connect: { lookup: publicOnlyLookup(answering(() => answer)) } });
    expect(await failureOf(guarded, `http://receiver.test:${port}/hook`), answer.join(',')).toBe(
      PRIVATE_ADDRESS_CODE,
    );
    await guarded.close();
  }
  expect(hits).toHaveLength(1);
});
