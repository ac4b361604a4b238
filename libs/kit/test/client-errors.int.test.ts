import { STATUS_CODES } from 'node:http';
import { ProblemDocumentSchema } from '@engage/contracts';
import { rawHttp } from '@engage/testkit/raw-http.ts';
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
