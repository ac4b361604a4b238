import { isUtf8 } from 'node:buffer';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { INTERNAL_MAX_HEADER_BYTES, MAX_PUBLIC_URL_BYTES } from '@engage/contracts';
import Fastify, {
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  LogController,
} from 'fastify';
import { serializerCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Logger } from 'pino';
import secureJson from 'secure-json-parse';
import { ZodError, type z } from 'zod';
import { httpMetricsHook } from './metrics.ts';
import {
  type FieldIssue,
  PROBLEM_MEDIA_TYPE,
  Problem,
  problem,
  problemDocument,
  requestProblem,
  unexpectedProblem,
  unrepresentableTextProblem,
  validationProblem,
} from './problems.ts';
import { context, currentTraceId, extractContext, SpanKind, trace, tracer } from './telemetry.ts';
import { answerAndClose, discardRequestBody, hasFinalAnswer } from './unread-input.ts';

export type HttpApp = FastifyInstance<
  import('node:http').Server,
  import('node:http').IncomingMessage,
  import('node:http').ServerResponse,
  Logger,
  ZodTypeProvider
>;

export interface HttpAppOptions {
  log: Logger;
  /** Largest request body accepted, in bytes. */
  bodyLimit?: number;
  /**
   * Largest request head accepted, in bytes. Internal services take the gateway's player context
   * (attributes included) in a header, so their default is larger than the public gateway's.
   */
  maxHeaderBytes?: number;
  /** Longest request target (path and query) accepted, in bytes; the contract's longest by default. */
  maxUrlBytes?: number;
  /** Readiness: every check must resolve true for /readyz to answer 200. */
  readiness?: () => Promise<boolean> | boolean;
}

/**
 * A fastify app with the contract's conventions: zod validation that names each refused field,
 * problem documents for every failure, a trace per request, /healthz and /readyz. Metrics are served
 * on a port of their own (metrics-server.ts).
 */
export function createHttpApp(options: HttpAppOptions): HttpApp {
  const app = Fastify({
    loggerInstance: options.log,
    // Per-request log lines are off: at event volume they would drown the logs; metrics and traces cover requests.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: options.bodyLimit ?? 1024 * 1024,
    onProtoPoisoning: 'error',
    onConstructorPoisoning: 'error',
    requestTimeout: 30_000,
    connectionTimeout: 60_000,
    keepAliveTimeout: 72_000,
    // Requests that arrive while the app closes are answered by the hook below, as problem documents.
    return503OnClosing: false,
    forceCloseConnections: 'idle',
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: MAX_PARAM_LENGTH },
    http: { maxHeaderSize: options.maxHeaderBytes ?? INTERNAL_MAX_HEADER_BYTES },
    // A path that cannot be routed (bad percent-encoding, a parameter too long) skips the hooks.
    frameworkErrors: (error, request, reply) => {
      const span = tracer().startSpan(`${request.method} unmatched`, { kind: SpanKind.SERVER });
      request.span = span;
      sendProblem(request, reply, toProblem(error, request));
      span.setAttribute('http.response.status_code', reply.statusCode);
      span.end();
    },
    clientErrorHandler: answerClientError,
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(({ schema }) => (data) => {
    const result = (schema as z.ZodType).safeParse(data);
    return result.success ? { value: result.data } : { error: result.error };
  });
  app.setSerializerCompiler(serializerCompiler);
  // Bodies are JSON only; anything else is refused before a handler runs.
  app.removeContentTypeParser(['text/plain', 'application/json']);
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) => {
    try {
      const text = jsonText(body as Buffer);
      done(null, text === '' ? undefined : parseJsonBody(text));
    } catch (err) {
      done(err as Error, undefined);
    }
  });

  let closing = false;
  app.addHook('preClose', (done) => {
    closing = true;
    done();
  });
  app.addHook('onRequest', (request, _reply, done) => {
    const parent = extractContext(request.headers);
    const span = tracer().startSpan(
      `${request.method} ${request.routeOptions.url ?? 'unmatched'}`,
      {
        kind: SpanKind.SERVER,
        attributes: { 'http.request.method': request.method, 'url.path': pathOf(request) },
      },
      parent,
    );
    request.span = span;
    context.with(trace.setSpan(parent, span), done);
  });
  app.addHook('onRequest', (request, _reply, done) => {
    done(closing && !PROBES.has(request.routeOptions.url ?? '') ? shuttingDown() : undefined);
  });
  const maxUrlBytes = options.maxUrlBytes ?? MAX_PUBLIC_URL_BYTES;
  app.addHook('onRequest', (request, _reply, done) => {
    done(request.raw.url && request.raw.url.length > maxUrlBytes ? urlTooLong(maxUrlBytes) : undefined);
  });
  app.addHook('onResponse', (request, reply, done) => {
    request.span?.setAttribute('http.response.status_code', reply.statusCode);
    request.span?.end();
    done();
  });
  app.addHook('onResponse', httpMetricsHook);
  // Path and query text is checked before any schema or handler sees it; bodies are checked as parsed.
  app.addHook('preValidation', (request, _reply, done) => {
    done(unrepresentableTextProblem(request.params, request.query));
  });

  app.setErrorHandler((error: Error, request, reply) =>
    sendProblem(request, reply, toProblem(error, request)),
  );
  app.setNotFoundHandler((request, reply) =>
    sendProblem(request, reply, problem('route.not_found', undefined, { method: request.method })),
  );

  app.get('/healthz', { logLevel: 'warn' }, async () => ({ status: 'ok' }));
  app.get('/readyz', { logLevel: 'warn' }, async (_request, reply) => {
    const ready = options.readiness ? await options.readiness() : true;
    return reply.code(ready ? 200 : 503).send({ status: ready ? 'ready' : 'not ready' });
  });
  return app;
}

declare module 'fastify' {
  interface FastifyRequest {
    span?: import('@opentelemetry/api').Span;
  }
}

export function pathOf(request: FastifyRequest): string {
  const url = request.raw.url ?? request.url;
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
}

export function sendProblem(request: FastifyRequest, reply: FastifyReply, p: Problem) {
  const traceId = request.span?.spanContext().traceId ?? currentTraceId() ?? '';
  if (p.status >= 500) request.log.error({ code: p.code }, 'request failed');
  // Answered before the body was read (too large, say): the client is still sending it.
  if (!request.raw.complete && !p.headers.connection) {
    reply.removeHeader('connection');
    discardRequestBody(request.raw);
  }
  return reply
    .code(p.status)
    .headers(p.headers)
    .header('cache-control', 'no-store')
    .type(PROBLEM_MEDIA_TYPE)
    .send(problemDocument(p, pathOf(request), traceId));
}

/** Routes that keep answering while the app closes (readiness turns 503 there). */
const PROBES = new Set(['/healthz', '/readyz', '/metrics']);

/**
 * A request that reaches a closing app (pipelined, or on a connection still busy) is not run: it is
 * refused as retryable, the contract's 500 with Retry-After (as when Kafka is away), and the
 * connection closes so the client's retry reaches another replica.
 */
const shuttingDown = () =>
  problem(
    'server.unexpected',
    'The service is shutting down. Retry with backoff.',
    {},
    {
      'retry-after': '1',
      connection: 'close',
    },
  );

const urlTooLong = (maxUrlBytes: number) =>
  requestProblem(
    `The request path and query are longer than the ${maxUrlBytes} bytes this service reads.`,
    'url_too_long',
  );

/**
 * Longer than any key or id the API takes, in the UTF-16 units the router counts (a key or id is at
 * most 200 characters, 400 units); a longer path parameter is refused before routing.
 */
const MAX_PARAM_LENGTH = 500;

/**
 * A request Node's HTTP parser could not read (a header section too large, a malformed request
 * line or header, a request not received in time) never reaches a route. It is answered here with a
 * problem document, so a caller sees the same shape as for any other refusal; the connection closes
 * once the client has stopped sending (see unread-input.ts).
 */
function answerClientError(error: Error & { code?: string; rawPacket?: unknown }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed || hasFinalAnswer(socket)) return;
  if (!socket.writable) {
    socket.destroy(error);
    return;
  }
  const span = tracer().startSpan('HTTP unreadable request', { kind: SpanKind.SERVER });
  const p = clientErrorProblem(error.code);
  span.setAttribute('http.response.status_code', p.status);
  span.end();
  const instance = requestPathIn(error.rawPacket);
  const body = JSON.stringify(problemDocument(p, instance, span.spanContext().traceId));
  answerAndClose(
    socket,
    `HTTP/1.1 ${p.status} ${STATUS_CODES[p.status]}\r\nContent-Type: ${PROBLEM_MEDIA_TYPE}; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n${body}`,
  );
}

/** A request line's path, up to its query or to ` HTTP/`; a request line split or malformed gives none. */
const REQUEST_LINE_PATH = /^[A-Z]+ (\/[!-~]*?)(?:\?| HTTP\/)/;

/**
 * The request path of the input the parser gave up on, when that input starts with the request
 * line (it does unless the head was so large that it arrived in several reads); otherwise empty.
 */
function requestPathIn(rawPacket: unknown): string {
  if (!Buffer.isBuffer(rawPacket)) return '';
  const start = rawPacket.subarray(0, MAX_PUBLIC_URL_BYTES).toString('latin1');
  return REQUEST_LINE_PATH.exec(start)?.[1] ?? '';
}

function clientErrorProblem(code: string | undefined): Problem {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return requestProblem('The request headers are larger than this service accepts.', 'headers_too_large');
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return requestProblem('The request was not received in time.', 'request_timeout');
    default:
      return requestProblem('The request is not well-formed HTTP/1.1.', 'malformed_request');
  }
}

function toProblem(error: FastifyError | Error, request: FastifyRequest): Problem {
  if (error instanceof Problem) return error;
  if (error instanceof ZodError) return zodProblem(error, request);
  const fastifyError = error as FastifyError;
  switch (fastifyError.code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return requestProblem(
        'The request body must be JSON (Content-Type: application/json).',
        'unsupported_media_type',
      );
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return requestProblem('The request body is larger than this endpoint accepts.', 'body_too_large');
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return requestProblem('The request body is empty; send a JSON object.', 'empty_body');
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return requestProblem('The request body is not valid JSON.', 'malformed_json');
    case 'FST_ERR_BAD_URL':
      return requestProblem('The request path is not valid percent-encoded UTF-8.', 'malformed_path');
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return requestProblem(
        'A path parameter is longer than any key or id the API takes.',
        'path_parameter_too_long',
      );
  }
  if (error instanceof SyntaxError || (fastifyError.statusCode ?? 500) < 500) {
    return requestProblem('The request could not be read.', 'unreadable_request');
  }
  request.log.error({ err: error }, 'unexpected error');
  return unexpectedProblem();
}

/**
 * The text of a JSON body, which must be UTF-8 (RFC 8259): decoding invalid bytes would turn them
 * into U+FFFD, so different bodies (two idempotency keys) would read as the same text.
 */
export function jsonText(body: Buffer): string {
  if (!isUtf8(body)) throw requestProblem('The request body is not valid UTF-8.', 'malformed_json');
  return body.toString('utf8');
}

/** JSON.parse that refuses __proto__ and constructor.prototype keys instead of dropping them. */
function parseJsonBody(text: string): unknown {
  let body: unknown;
  try {
    body = secureJson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' });
  } catch (err) {
    if (/prototype|constructor/i.test((err as Error).message)) {
      throw requestProblem(
        'The request body contains a forbidden key (__proto__ or constructor).',
        'forbidden_key',
      );
    }
    throw requestProblem('The request body is not valid JSON.', 'malformed_json');
  }
  const refused = unrepresentableTextProblem(body);
  if (refused) throw refused;
  return body;
}

function zodProblem(error: ZodError, request: FastifyRequest): Problem {
  const where = (error as ZodError & { validationContext?: string }).validationContext;
  const raw: unknown =
    where === 'querystring' ? request.query : where === 'params' ? request.params : request.body;
  if (where === 'body' && (raw === null || typeof raw !== 'object')) {
    return requestProblem('The request body must be a JSON object.', 'not_an_object');
  }
  return validationProblem(error.issues.map((issue) => fieldIssue(issue, raw)));
}

function fieldIssue(issue: z.core.$ZodIssue, raw: unknown): FieldIssue {
  const value = valueAt(raw, issue.path);
  return {
    path: issue.path,
    message: issue.message,
    reason: reasonOf(issue),
    // null is the same as not sending the field (the gateway says so of the player id too).
    missing: value === undefined || value === null || value === '',
    tooLong: issue.code === 'too_big' && typeof value === 'string',
  };
}

/** A refinement may name its own reason (`params.reason`); otherwise the zod issue code is the reason. */
function reasonOf(issue: z.core.$ZodIssue): string {
  const own = issue.code === 'custom' ? issue.params?.reason : undefined;
  return typeof own === 'string' ? own : issue.code;
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let node = root;
  for (const segment of path) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<PropertyKey, unknown>)[segment];
  }
  return node;
}
