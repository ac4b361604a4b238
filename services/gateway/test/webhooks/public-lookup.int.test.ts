import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent, request } from 'undici';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { PRIVATE_ADDRESS_CODE, publicOnlyLookup } from '../../src/application/webhooks/public-lookup.ts';
import { isPrivateAddress } from '../../src/domain/webhook-address.ts';

// Without WEBHOOK_ALLOW_PRIVATE_ADDRESSES the worker connects through publicOnlyLookup: a receiver
// whose name resolves to a private address (here localhost, a real server on loopback) is refused
// before any byte is sent.
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

it('refuses to connect to a name that resolves to a private address', async () => {
  const guarded = new Agent({ connect: { lookup: publicOnlyLookup } });
  const refused = await request(`http://localhost:${port}/hook`, {
    dispatcher: guarded,
    method: 'POST',
  }).then(
    () => undefined,
    (err: { code?: string; cause?: { code?: string } }) => err.code ?? err.cause?.code,
  );
  expect(refused).toBe(PRIVATE_ADDRESS_CODE);
  expect(hits).toEqual([]);
  await guarded.close();

  // The same request without the guard reaches the server: the refusal is the guard's.
  const open = new Agent();
  const answer = await request(`http://localhost:${port}/hook`, { dispatcher: open, method: 'POST' });
  expect(answer.statusCode).toBe(204);
  await answer.body.dump();
  await open.close();
  expect(hits).toHaveLength(1);
});

it('knows the private ranges of both families', () => {
  for (const address of [
    '127.0.0.1',
    '10.1.2.3',
    '172.20.0.1',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '::1',
    '[::1]',
    'fd00::1',
    'fe80::1',
    '::ffff:10.0.0.1',
    '::',
  ]) {
    expect(isPrivateAddress(address), address).toBe(true);
  }
  for (const address of ['8.8.8.8', '172.32.0.1', '2606:4700::1111', '::ffff:1.1.1.1', 'hooks.example.com']) {
    expect(isPrivateAddress(address), address).toBe(false);
  }
});
