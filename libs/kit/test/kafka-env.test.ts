import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, kafkaConnectionEnv, parseEnv } from '../src/env.ts';

const dir = mkdtempSync(join(tmpdir(), 'kafka-env-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};
const parse = (env: Record<string, string>) => parseEnv(kafkaConnectionEnv, env).kafkaSecurity;
const refusal = (env: Record<string, string>) => {
  try {
    parse(env);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as Error).message;
  }
  throw new Error('accepted');
};

describe('Kafka security settings', () => {
  it('is plaintext by default', () => {
    expect(parse({})).toEqual({ protocol: 'PLAINTEXT' });
  });

  it('reads the CA, the client certificate and a password file (without its trailing newline)', () => {
    expect(
      parse({
        KAFKA_SECURITY_PROTOCOL: 'SASL_SSL',
        KAFKA_SSL_CA_FILE: file('ca.pem', 'CA'),
        KAFKA_SSL_CERT_FILE: file('cert.pem', 'CERT'),
        KAFKA_SSL_KEY_FILE: file('key.pem', 'KEY'),
        KAFKA_SASL_MECHANISM: 'SCRAM-SHA-512',
        KAFKA_SASL_USERNAME: 'engage',
        KAFKA_SASL_PASSWORD_FILE: file('password', 's3cret\n'),
      }),
    ).toEqual({
      protocol: 'SASL_SSL',
      tls: { ca: 'CA', cert: 'CERT', key: 'KEY' },
      sasl: { mechanism: 'SCRAM-SHA-512', username: 'engage', password: 's3cret' },
    });
  });

  it("uses the system's CAs when no CA file is given, and takes an empty variable as unset", () => {
    expect(parse({ KAFKA_SECURITY_PROTOCOL: 'SSL', KAFKA_SSL_CA_FILE: '' })).toEqual({
      protocol: 'SSL',
      tls: {},
    });
  });

  it('refuses settings the protocol does not use', () => {
    const message = refusal({ KAFKA_SSL_CA_FILE: '/ca.pem', KAFKA_SASL_USERNAME: 'engage' });
    expect(message).toContain('KAFKA_SSL_CA_FILE: is set but KAFKA_SECURITY_PROTOCOL=PLAINTEXT uses no TLS');
    expect(message).toContain(
      'KAFKA_SASL_USERNAME: is set but KAFKA_SECURITY_PROTOCOL=PLAINTEXT logs in with no SASL',
    );
  });

  it('refuses a SASL protocol without a mechanism, user or exactly one password', () => {
    const message = refusal({
      KAFKA_SECURITY_PROTOCOL: 'SASL_PLAINTEXT',
      KAFKA_SASL_PASSWORD: 'a',
      KAFKA_SASL_PASSWORD_FILE: '/b',
    });
    expect(message).toContain('KAFKA_SASL_MECHANISM: is required with SASL_PLAINTEXT');
    expect(message).toContain('KAFKA_SASL_USERNAME: is required with SASL_PLAINTEXT');
    expect(message).toContain('needs exactly one of KAFKA_SASL_PASSWORD and KAFKA_SASL_PASSWORD_FILE');
  });

  it('refuses a client certificate without its key, an unknown mechanism and an unreadable file', () => {
    expect(refusal({ KAFKA_SECURITY_PROTOCOL: 'SSL', KAFKA_SSL_CERT_FILE: file('c.pem', 'C') })).toContain(
      'KAFKA_SSL_KEY_FILE: a client certificate needs both',
    );
    expect(refusal({ KAFKA_SECURITY_PROTOCOL: 'SASL_SSL', KAFKA_SASL_MECHANISM: 'GSSAPI' })).toContain(
      'KAFKA_SASL_MECHANISM',
    );
    expect(
      refusal({ KAFKA_SECURITY_PROTOCOL: 'SSL', KAFKA_SSL_CA_FILE: join(dir, 'missing.pem') }),
    ).toContain(`KAFKA_SSL_CA_FILE: cannot read ${join(dir, 'missing.pem')}: ENOENT`);
  });
});

describe('schema registry settings', () => {
  const registry = (env: Record<string, string>) => parseEnv(kafkaConnectionEnv, env).schemaRegistry;
  const url = 'http://127.0.0.1:8085/apis/ccompat/v7';

  it('is off without SCHEMA_REGISTRY_URL, BACKWARD by default with it', () => {
    expect(registry({})).toBeUndefined();
    expect(registry({ SCHEMA_REGISTRY_URL: '' })).toBeUndefined();
    expect(registry({ SCHEMA_REGISTRY_URL: url })).toEqual({ url, compatibility: 'BACKWARD' });
    expect(registry({ SCHEMA_REGISTRY_URL: url, SCHEMA_REGISTRY_COMPATIBILITY: 'FULL_TRANSITIVE' })).toEqual({
      url,
      compatibility: 'FULL_TRANSITIVE',
    });
  });

  it('reads a login, its password from a file without the trailing newline', () => {
    expect(
      registry({
        SCHEMA_REGISTRY_URL: url,
        SCHEMA_REGISTRY_USERNAME: 'analytics',
        SCHEMA_REGISTRY_PASSWORD_FILE: file('registry-password', 'pw\n'),
      }),
    ).toEqual({ url, auth: { username: 'analytics', password: 'pw' }, compatibility: 'BACKWARD' });
  });

  it('names each setting that cannot be used', () => {
    expect(refusalOf({ SCHEMA_REGISTRY_USERNAME: 'a' })).toContain(
      'SCHEMA_REGISTRY_USERNAME: is set but SCHEMA_REGISTRY_URL is not',
    );
    expect(refusalOf({ SCHEMA_REGISTRY_COMPATIBILITY: 'LOOSE' })).toContain('SCHEMA_REGISTRY_COMPATIBILITY');
    expect(refusalOf({ SCHEMA_REGISTRY_URL: 'not a url' })).toContain('SCHEMA_REGISTRY_URL');
    expect(refusalOf({ SCHEMA_REGISTRY_URL: url, SCHEMA_REGISTRY_USERNAME: 'a' })).toContain(
      'SCHEMA_REGISTRY_PASSWORD: a registry login needs exactly one of SCHEMA_REGISTRY_PASSWORD and SCHEMA_REGISTRY_PASSWORD_FILE',
    );
    expect(refusalOf({ SCHEMA_REGISTRY_URL: url, SCHEMA_REGISTRY_PASSWORD: 'p' })).toContain(
      'SCHEMA_REGISTRY_PASSWORD: is set but SCHEMA_REGISTRY_USERNAME is not',
    );
  });

  function refusalOf(env: Record<string, string>): string {
    try {
      registry(env);
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      return (err as Error).message;
    }
    throw new Error('accepted');
  }
});
