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
    ],
    [
      'NUL in a header value',
      head(['GET /v1/points HTTP/1.1', 'Host: x', 'Authorization: Bearer a\u0000b']),
      'malformed_request',
    ],
    [
      'a bare CR in a header value',
      head(['GET /v1/points HTTP/1.1', 'Host: x', 'X-A: a\rb']),
      'malformed_request',
    ],
    ['an unknown method', head(['BREW /v1/points HTTP/1.1', 'Host: x']), 'malformed_request'],
    ['a space in the target', head(['GET /v1/po ints HTTP/1.1', 'Host: x']), 'malformed_request'],
    [
      'both Content-Length and Transfer-Encoding',
      `${head(['POST /v1/points HTTP/1.1', 'Host: x', 'Content-Length: 2', 'Transfer-Encoding: chunked'])}{}`,
      'malformed_request',
    ],
    [
      'not HTTP at all',
      '\u0016\u0003\u0001\u0000\u00a5\u0001\u0000\u0000\u00a1\u0003\u0003\r\n\r\n',
      'malformed_request',
    ],
  ])('answers %s with a 400 problem document', async (_, request, reason) => {
    const answer = await rawHttp(url, Buffer.from(request, 'latin1'));
    expect(answer.status).toBe(400);
    expect(answer.headers['content-type']).toBe('application/problem+json; charset=utf-8');
    expect(Number(answer.headers['content-length'])).toBe(answer.body.length);
    const text = new TextDecoder('utf-8', { fatal: true }).decode(answer.body);
    const document = ProblemDocumentSchema.parse(JSON.parse(text));
    expect(document).toMatchObject({ title: STATUS_CODES[400], status: 400, code: 'validation.request' });
    expect(document.errors[0]?.meta.reason).toBe(reason);
    expect(document.traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(text).not.toMatch(/FST_|Client Error|v1\/po/);
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
