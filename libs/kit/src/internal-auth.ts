import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import { Transform } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { HttpApp } from './http.ts';
import { CONTENT_DIGEST_HEADER, InternalVerifier, SIGNATURE_WINDOW_MS } from './internal-signature.ts';
import { problem } from './problems.ts';

const secret = z.string().min(32, 'must be at least 32 characters (openssl rand -hex 32)');

/** The secret the gateway signs its calls with; the previous one is still accepted during a rotation. */
export const internalAuthEnv = z.object({
  INTERNAL_AUTH_SECRET: secret,
  INTERNAL_AUTH_SECRET_PREVIOUS: z.union([z.literal('').transform(() => undefined), secret]).optional(),
});

export function internalVerifierOf(env: z.infer<typeof internalAuthEnv>): InternalVerifier {
  return new InternalVerifier(
    env.INTERNAL_AUTH_SECRET_PREVIOUS
      ? [env.INTERNAL_AUTH_SECRET, env.INTERNAL_AUTH_SECRET_PREVIOUS]
      : [env.INTERNAL_AUTH_SECRET],
  );
}

/** Probes answer anyone: the kubelet does not sign. */
const OPEN_ROUTES = new Set(['/healthz', '/readyz']);

const REFUSALS = {
  unsigned: 'The call does not carry the gateway’s signature.',
  outside_window: `The call’s signature is more than ${SIGNATURE_WINDOW_MS / 1000} seconds away from this service’s clock.`,
  mismatch: 'The call’s signature does not match it.',
  body: 'The call’s body does not match its signed digest.',
} as const;

const unauthorized = (reason: keyof typeof REFUSALS) =>
  problem('internal.unauthorized', REFUSALS[reason], { reason });

/**
 * Every route of `app` but the probes answers only calls the gateway signed (internal-signature.ts);
 * anything else is a 401 before a handler runs. The signature covers the body's digest; the body
 * itself is checked against it as it is read.
 */
export function requireGatewaySignature(app: HttpApp, verifier: InternalVerifier): void {
  app.addHook('onRequest', (request, _reply, done) => {
    if (isOpen(request)) return done();
    const check = verifier.verify({
      method: request.method,
      url: request.raw.url ?? request.url,
      headers: request.headers,
    });
    if (check !== 'valid') return done(unauthorized(check));
    if (hasBody(request) !== (request.headers[CONTENT_DIGEST_HEADER] !== undefined)) {
      return done(unauthorized('body'));
    }
    done();
  });
  app.addHook('preParsing', (request, _reply, payload, done) => {
    const digest = request.headers[CONTENT_DIGEST_HEADER];
    if (isOpen(request) || typeof digest !== 'string') return done(null, payload);
    done(null, checkedAgainst(payload, digest));
  });
}

function isOpen(request: FastifyRequest): boolean {
  return OPEN_ROUTES.has(request.routeOptions.url ?? '');
}

function hasBody(request: FastifyRequest): boolean {
  const length = request.headers['content-length'];
  return request.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/** The body passed through unchanged; the stream fails with a 401 at its end if the digest differs. */
function checkedAgainst(payload: Readable, digest: string): Readable {
  const hash = createHash('sha256');
  const checked = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      hash.update(chunk);
      callback(null, chunk);
    },
    flush(callback) {
      callback(`sha-256=:${hash.digest('base64')}:` === digest ? null : unauthorized('body'));
    },
  });
  payload.on('error', (err) => checked.destroy(err));
  return payload.pipe(checked);
}
