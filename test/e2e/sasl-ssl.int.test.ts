import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type BrokerCertificates,
  makeBrokerCertificates,
  type PrivateKafka,
  startPrivateKafka,
} from '@engage/devstack';
import { startStack, type TestStack } from '@engage/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAndWaitForExit, walkOnePlayer } from './support/one-player.ts';

/**
 * The whole pipeline on a broker whose only client listener is SASL_SSL, with certificates this
 * test makes: all four services connect over TLS with the test's CA and log in with SCRAM (the
 * gateway's producer with SCRAM-SHA-256, the others with SCRAM-SHA-512 and a password file). An
 * event goes in; mission progress, reward points and the board score come out. A wrong password and
 * an untrusted CA stop a service at start with the cause in its log.
 */

const USER = { username: 'engage', password: 'correct-horse-battery-staple' };
/** How long a service may take to give up on a configuration that cannot work. */
const FAIL_FAST_MS = 30_000;

const dir = mkdtempSync(join(tmpdir(), 'engage-sasl-ssl-'));
let certificates: BrokerCertificates;
let untrusted: BrokerCertificates;
let broker: PrivateKafka | undefined;
let stack: TestStack | undefined;
let securedEnv: Record<string, string>;

beforeAll(async () => {
  [certificates, untrusted] = await Promise.all([
    makeBrokerCertificates(join(dir, 'trusted')),
    makeBrokerCertificates(join(dir, 'untrusted')),
  ]);
  broker = await startPrivateKafka({ saslSsl: { certificates, users: [USER] } });
  const passwordFile = join(dir, 'password');
  // As a mounted Kubernetes secret often is: with a trailing newline.
  writeFileSync(passwordFile, `${USER.password}\n`);
  securedEnv = {
    KAFKA_BROKERS: broker.brokers.join(','),
    KAFKA_SECURITY_PROTOCOL: 'SASL_SSL',
    KAFKA_SSL_CA_FILE: certificates.caFile,
    KAFKA_SASL_MECHANISM: 'SCRAM-SHA-512',
    KAFKA_SASL_USERNAME: USER.username,
    KAFKA_SASL_PASSWORD_FILE: passwordFile,
  };
}, 180_000);

afterAll(async () => {
  await stack?.stop();
  await broker?.destroy();
  rmSync(dir, { recursive: true, force: true });
});

describe('Kafka over SASL_SSL', () => {
  it('runs an event through all four services to missions, points and the board', async () => {
    stack = await startStack({
      brokers: broker!.brokers,
      security: broker!.security,
      env: securedEnv,
      serviceEnv: {
        gateway: {
          KAFKA_SASL_MECHANISM: 'SCRAM-SHA-256',
          KAFKA_SASL_PASSWORD_FILE: '',
          KAFKA_SASL_PASSWORD: USER.password,
        },
      },
    });
    const running = stack;
    await walkOnePlayer(running, 'secured-1');
    for (const service of Object.values(running.services))
      expect(service.logs()).not.toMatch(/"level":(50|60)/);
  }, 300_000);

  it('stops a consuming service at start with the cause when its password is wrong', async () => {
    const { code, elapsedMs, output } = await startAndWaitForExit(
      'rules',
      {
        ...securedEnv,
        KAFKA_SASL_PASSWORD_FILE: '',
        KAFKA_SASL_PASSWORD: 'not-the-password',
      },
      FAIL_FAST_MS * 2,
    );
    expect({ code, inTime: elapsedMs < FAIL_FAST_MS }).toEqual({ code: 1, inTime: true });
    expect(output).toContain('Kafka refused the SASL login of user engage with SCRAM-SHA-512');
  });

  it("stops the gateway at start with the cause when the CA did not sign the broker's certificate", async () => {
    const { code, elapsedMs, output } = await startAndWaitForExit(
      'gateway',
      { ...securedEnv, KAFKA_SSL_CA_FILE: untrusted.caFile },
      FAIL_FAST_MS * 2,
    );
    expect({ code, inTime: elapsedMs < FAIL_FAST_MS }).toEqual({ code: 1, inTime: true });
    expect(output).toContain(
      "the Kafka broker's TLS certificate does not verify against the CA in KAFKA_SSL_CA_FILE",
    );
  });

  it('refuses a SASL protocol without a mechanism before connecting', async () => {
    const { code, output } = await startAndWaitForExit(
      'ledger',
      { ...securedEnv, KAFKA_SASL_MECHANISM: '' },
      FAIL_FAST_MS * 2,
    );
    expect(code).toBe(78);
    expect(output).toContain('KAFKA_SASL_MECHANISM: is required with SASL_SSL');
  });
});
