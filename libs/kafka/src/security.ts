import { isIP } from 'node:net';
import type { ConnectionOptions } from 'node:tls';
import type { KafkaSecurity } from '@engage/kit';
import type { SASLOptions } from 'kafkajs';

export type { KafkaSecurity };

/** No TLS, no login: the local broker of `npm start`. */
export const PLAINTEXT: KafkaSecurity = { protocol: 'PLAINTEXT' };

/** The `ssl` and `sasl` options of a kafkajs client. */
export function kafkajsSecurity(security: KafkaSecurity): { ssl?: ConnectionOptions; sasl?: SASLOptions } {
  return {
    ...(security.tls ? { ssl: { ...security.tls } } : {}),
    ...(security.sasl ? { sasl: kafkajsSasl(security.sasl) } : {}),
  };
}

function kafkajsSasl(sasl: NonNullable<KafkaSecurity['sasl']>): SASLOptions {
  const { username, password } = sasl;
  switch (sasl.mechanism) {
    case 'PLAIN':
      return { mechanism: 'plain', username, password };
    case 'SCRAM-SHA-256':
      return { mechanism: 'scram-sha-256', username, password };
    case 'SCRAM-SHA-512':
      return { mechanism: 'scram-sha-512', username, password };
  }
}

/**
 * The `tls`, `tlsServerName` and `sasl` options of a `@platformatic/kafka` client. It sends no TLS
 * server name unless told: managed clusters route by it, so it names the broker's host, except when
 * a bootstrap broker is an IP address (RFC 6066 allows host names only).
 */
export function platformaticSecurity(
  security: KafkaSecurity,
  brokers: string[],
): {
  tls?: ConnectionOptions;
  tlsServerName?: boolean;
  sasl?: { mechanism: NonNullable<KafkaSecurity['sasl']>['mechanism']; username: string; password: string };
} {
  const byName = brokers.every((broker) => isIP(broker.slice(0, broker.lastIndexOf(':'))) === 0);
  return {
    ...(security.tls ? { tls: { ...security.tls }, tlsServerName: byName } : {}),
    ...(security.sasl ? { sasl: { ...security.sasl } } : {}),
  };
}

/** Node's codes for a broker certificate that does not verify: trying again cannot help. */
const UNTRUSTED_CERTIFICATE = new Set([
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'CERT_UNTRUSTED',
  'CERT_REJECTED',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);

/** Every error inside `err`: its causes, and the members of aggregates (both clients nest them). */
function* nested(err: unknown, depth = 0): Generator<Record<string, unknown>> {
  if (typeof err !== 'object' || err === null || depth > 8) return;
  const error = err as Record<string, unknown>;
  yield error;
  yield* nested(error.cause, depth + 1);
  yield* nested(error.originalError, depth + 1);
  if (Array.isArray(error.errors)) for (const inner of error.errors) yield* nested(inner, depth + 1);
}

/**
 * Why a Kafka client cannot connect with its configuration, when retrying cannot change it: the
 * broker refused the login, or its certificate is not trusted. Undefined for anything else.
 */
export function securityFailureOf(err: unknown, security: KafkaSecurity): string | undefined {
  for (const error of nested(err)) {
    if (error.name === 'KafkaJSSASLAuthenticationError' || error.code === 'PLT_KFK_AUTHENTICATION') {
      const who = security.sasl
        ? `user ${security.sasl.username} with ${security.sasl.mechanism}`
        : 'this client';
      return (
        `Kafka refused the SASL login of ${who} (${String(error.message)}): ` +
        'check KAFKA_SASL_USERNAME, KAFKA_SASL_PASSWORD(_FILE) and KAFKA_SASL_MECHANISM'
      );
    }
    if (typeof error.code === 'string' && UNTRUSTED_CERTIFICATE.has(error.code)) {
      const trusted = security.tls?.ca ? 'the CA in KAFKA_SSL_CA_FILE' : "the system's trusted CAs";
      return (
        `the Kafka broker's TLS certificate does not verify against ${trusted} (${error.code}): ` +
        'set KAFKA_SSL_CA_FILE to the CA that signed it'
      );
    }
  }
  return undefined;
}

/** A connection refused for good (see `securityFailureOf`): a service stops at once, it does not retry. */
export class KafkaSecurityError extends Error {
  override name = 'KafkaSecurityError';
}
