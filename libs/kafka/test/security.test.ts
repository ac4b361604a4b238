import { describe, expect, it } from 'vitest';
import {
  type KafkaSecurity,
  kafkajsSecurity,
  platformaticSecurity,
  securityFailureOf,
} from '../src/security.ts';

const secured: KafkaSecurity = {
  protocol: 'SASL_SSL',
  tls: { ca: 'CA' },
  sasl: { mechanism: 'SCRAM-SHA-256', username: 'engage', password: 'p' },
};

describe('Kafka client security options', () => {
  it('gives kafkajs its ssl and lower-case sasl options, and nothing for plaintext', () => {
    expect(kafkajsSecurity(secured)).toEqual({
      ssl: { ca: 'CA' },
      sasl: { mechanism: 'scram-sha-256', username: 'engage', password: 'p' },
    });
    expect(kafkajsSecurity({ protocol: 'PLAINTEXT' })).toEqual({});
  });

  it('gives @platformatic/kafka tls and sasl, with a server name for host names only', () => {
    expect(platformaticSecurity(secured, ['kafka-0.example.com:9093'])).toEqual({
      tls: { ca: 'CA' },
      tlsServerName: true,
      sasl: { mechanism: 'SCRAM-SHA-256', username: 'engage', password: 'p' },
    });
    expect(platformaticSecurity(secured, ['127.0.0.1:9093']).tlsServerName).toBe(false);
  });

  it('finds a refused login or an untrusted certificate however deep the client nested it', () => {
    const refused = new AggregateError([
      new Error('x', { cause: { code: 'PLT_KFK_AUTHENTICATION', message: 'no' } }),
    ]);
    expect(securityFailureOf(refused, secured)).toMatch(/^Kafka refused the SASL login of user engage/);
    const untrusted = Object.assign(new Error('Connection error'), { code: 'SELF_SIGNED_CERT_IN_CHAIN' });
    expect(securityFailureOf(new Error('retries', { cause: untrusted }), secured)).toContain(
      'does not verify against the CA in KAFKA_SSL_CA_FILE (SELF_SIGNED_CERT_IN_CHAIN)',
    );
    expect(
      securityFailureOf(Object.assign(new Error('refused'), { code: 'ECONNREFUSED' }), secured),
    ).toBeUndefined();
  });
});
