import { once } from 'node:events';
import { STATUS_CODES } from 'node:http';
import { connect } from 'node:net';
import { ProblemDocumentSchema } from '@engage/contracts';
import { parseAnswers, rawHttp } from '@engage/testkit/raw-http.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpApp, createLogger, type HttpApp } from '../src/index.ts';

/** Requests Node's HTTP parser refuses before any route: each answer is still a problem document. */
let app: HttpApp;
let url: string;

beforeAll(async () => {
  app = createHttpApp({ log: createLogger('test', 'silent'), maxHeaderBytes: 16 * 1024 });
  app.get('/v1/points', async () => ({ balance: 0 }));
  url = await app.listen({ host: '127.0.0.1', port: 0 });
});
afterAll(() => app?.close());

const head = (lines: string[]) => `${lines.join('\r\n')}\r\n\r\n`;

describe('requests the HTTP parser refuses', () => {
  it.each([
    [
      'a header section over the limit',
      head(['GET /v1/points HTTP/1.1', 'Host: x', `X-Pad: ${'a'.repeat(20_000)}`]),
      'headers_too_large',
      '/v1/points',
    ],
    [
      'a query over the head limit',
      head([`GET /v1/points?PlayerId=${'a'.repeat(20_000)} HTTP/1.1`, 'Host: x']),
      'headers_too_large',
      '/v1/points',
    ],
    [
      'NUL in a header value',
      head(['GET /v1/points HTTP/1.1', 'Host: x', 'Authorization: Bearer a\u0000b']),
      'malformed_request',
      '/v1/points',
    ],
    [
      'a bare CR in a header value',
      head(['GET /v1/points HTTP/1.1', 'Host: x', 'X-A: a\rb']),
      'malformed_request',
      '/v1/points',
    ],
    ['an unknown method', head(['BREW /v1/points HTTP/1.1', 'Host: x']), 'malformed_request', '/v1/points'],
    // The target is not one: no path is named.
    ['a space in the target', head(['GET /v1/po ints HTTP/1.1', 'Host: x']), 'malformed_request', ''],
    [
      'both Content-Length and Transfer-Encoding',
      `${head(['POST /v1/points HTTP/1.1', 'Host: x', 'Content-Length: 2', 'Transfer-Encoding: chunked'])}{}`,
      'malformed_request',
      '/v1/points',
    ],
    [
      'not HTTP at all',
      '\u0016\u0003\u0001\u0000\u00a5\u0001\u0000\u0000\u00a1\u0003\u0003\r\n\r\n',
      'malformed_request',
      '',
    ],
  ])('answers %s with a 400 problem document naming the path', async (_, request, reason, instance) => {
    const answer = await rawHttp(url, Buffer.from(request, 'latin1'));
    expect(answer.status).toBe(400);
    expect(answer.headers['content-type']).toBe('application/problem+json; charset=utf-8');
    expect(Number(answer.headers['content-length'])).toBe(answer.body.length);
    const text = new TextDecoder('utf-8', { fatal: true }).decode(answer.body);
    const document = ProblemDocumentSchema.parse(JSON.parse(text));
    expect(document).toMatchObject({ title: STATUS_CODES[400], status: 400, code: 'validation.request' });
    expect(document.errors[0]?.meta.reason).toBe(reason);
    expect(document.traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(document.instance).toBe(instance);
    expect(text).not.toMatch(/FST_|Client Error|v1\/po |aaaa/);
  });
});

describe('a request that reaches a closing app', () => {
  it('is refused as retryable with a problem document, not run', async () => {
    const closing = createHttpApp({ log: createLogger('test', 'silent') });
    let entered!: () => void;
    const slowEntered = new Promise<void>((resolve) => (entered = resolve));
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let ran = 0;
    let closeBegan!: () => void;
    const closeHasBegun = new Promise<void>((resolve) => (closeBegan = resolve));
    closing.addHook('preClose', (done) => {
      closeBegan();
      done();
    });
    closing.get('/slow', async () => {
      entered();
      await released;
      return { slow: true };
    });
    closing.get('/v1/points', async () => ({ balance: ran++ }));
    const address = await closing.listen({ host: '127.0.0.1', port: 0 });
    let secondArrived!: () => void;
    const secondHasArrived = new Promise<void>((resolve) => (secondArrived = resolve));
    closing.server.prependListener('request', (request) => {
      if (request.url === '/v1/points') secondArrived();
    });

    // A request in flight keeps its connection open; a second one arrives on it after close began.
    const { port } = new URL(address);
    const socket = connect({ host: '127.0.0.1', port: Number(port) });
    const received: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => received.push(chunk));
    const socketClosed = once(socket, 'close');
    await once(socket, 'connect');
    socket.write(head(['GET /slow HTTP/1.1', 'Host: x']));
    await slowEntered;
    const closed = closing.close();
    await closeHasBegun;
    socket.write(head(['GET /v1/points HTTP/1.1', 'Host: x']));
    await secondHasArrived;
    release();
    await Promise.all([closed, socketClosed]);
    const [slow, refused] = parseAnswers(Buffer.concat(received));

    expect(slow?.status).toBe(200);
    expect(refused?.status).toBe(500);
    expect(refused?.headers['content-type']).toBe('application/problem+json; charset=utf-8');
    expect(refused?.headers['retry-after']).toBe('1');
    expect(JSON.parse(refused!.body.toString())).toMatchObject({ code: 'server.unexpected', status: 500 });
    expect(ran).toBe(0);
  });
});

describe('a client still sending when the answer goes out', () => {
  it('reads the problem document after a head over the limit, every time', async () => {
    for (let attempt = 0; attempt < 20; attempt++) {
      const res = await fetch(`${url}/v1/points?PlayerId=${'a'.repeat(2_000_000)}`);
      const document = ProblemDocumentSchema.parse(await res.json());
      expect([res.status, document.errors[0]?.meta.reason]).toEqual([400, 'headers_too_large']);
    }
  });

  it('has the rest of a head over the limit read until the client closes, without a reset', async () => {
    // Half-open allowed: the client goes on sending after the server has ended its side.
    const socket = connect({ host: '127.0.0.1', port: Number(new URL(url).port), allowHalfOpen: true });
    await once(socket, 'connect');
    const closed = once(socket, 'close');
    const received: Buffer[] = [];
    const errors: Error[] = [];
    socket.on('data', (chunk: Buffer) => received.push(chunk));
    socket.on('error', (err) => errors.push(err));
    const answered = once(socket, 'end');
    socket.write(`GET /v1/points?PlayerId=${'a'.repeat(32 * 1024)}`);
    await answered;
    // The server has answered and ended its side; the client is still sending its head.
    for (let chunk = 0; chunk < 8; chunk++) {
      socket.write('a'.repeat(64 * 1024));
      await new Promise((resolve) => setImmediate(resolve));
    }
    socket.end();
    await closed;
    expect(errors).toEqual([]);
    const [answer] = parseAnswers(Buffer.concat(received));
    expect(answer?.status).toBe(400);
    expect(JSON.parse(answer!.body.toString())).toMatchObject({
      instance: '/v1/points',
      errors: [{ meta: { reason: 'headers_too_large' } }],
    });
  });

  it('has the rest of a body over the limit read, and the connection serves the next request', async () => {
    const small = createHttpApp({ log: createLogger('test', 'silent'), bodyLimit: 1024 });
    small.post('/v1/points', async () => ({ balance: 1 }));
    const address = await small.listen({ host: '127.0.0.1', port: 0 });
    try {
      const socket = connect({ host: '127.0.0.1', port: Number(new URL(address).port) });
      await once(socket, 'connect');
      const received: Buffer[] = [];
      let answered!: () => void;
      const firstAnswer = new Promise<void>((resolve) => (answered = resolve));
      socket.on('data', (chunk: Buffer) => {
        received.push(chunk);
        if (Buffer.concat(received).includes('}')) answered();
      });
      const size = 1024 * 1024;
      const contentHead = ['Host: x', 'Content-Type: application/json', `Content-Length: ${size}`];
      socket.write(head(['POST /v1/points HTTP/1.1', ...contentHead]));
      socket.write(Buffer.alloc(4096, 0x20));
      // The refusal comes while most of the body is still to be sent.
      await firstAnswer;
      for (let sent = 4096; sent < size; sent += 64 * 1024) {
        socket.write(Buffer.alloc(Math.min(64 * 1024, size - sent), 0x20));
      }
      const closed = once(socket, 'close');
      socket.write(
        `${head(['POST /v1/points HTTP/1.1', 'Host: x', 'Content-Type: application/json', 'Content-Length: 2', 'Connection: close'])}{}`,
      );
      await closed;
      const [refused, next] = parseAnswers(Buffer.concat(received));
      expect(refused?.status).toBe(400);
      expect(JSON.parse(refused!.body.toString())).toMatchObject({
        code: 'validation.request',
        instance: '/v1/points',
        errors: [{ meta: { reason: 'body_too_large' } }],
      });
      expect(refused?.headers.connection).not.toBe('close');
      expect([next?.status, JSON.parse(next!.body.toString())]).toEqual([200, { balance: 1 }]);
    } finally {
      await small.close();
    }
  });
});

describe('a request target over the limit', () => {
  it('is refused with a problem document naming the path', async () => {
    const bounded = createHttpApp({ log: createLogger('test', 'silent'), maxUrlBytes: 1_000 });
    bounded.get('/v1/points', async () => ({ balance: 0 }));
    const address = await bounded.listen({ host: '127.0.0.1', port: 0 });
    try {
      const within = await fetch(`${address}/v1/points?PlayerId=${'a'.repeat(1_000 - 20)}`);
      expect(within.status).toBe(200);
      const over = await fetch(`${address}/v1/points?PlayerId=${'a'.repeat(1_000)}`);
      expect(over.status).toBe(400);
      expect(await over.json()).toMatchObject({
        code: 'validation.request',
        instance: '/v1/points',
        errors: [{ meta: { reason: 'url_too_long' } }],
      });
    } finally {
      await bounded.close();
    }
  });
});
