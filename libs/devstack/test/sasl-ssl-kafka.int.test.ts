// A private broker whose only client listener is SASL_SSL: every SASL mechanism the services offer
// logs in over TLS with the test's CA, and a wrong password or an untrusted CA is told apart from
// a broker that is merely out of reach.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createKafka, type KafkaSecurity, securityFailureOf } from '@engage/kafka';
import { createLogger } from '@engage/kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeOnce } from '../src/kafka/client.ts';
import { makeBrokerCertificates, type PrivateKafka, startPrivateKafka } from '../src/kafka/index.ts';

const USER = { username: 'engage-test', password: 'a-long-test-password' };
const certificatesDir = mkdtempSync(join(tmpdir(), 'engage-certs-'));
let broker: PrivateKafka | undefined;
let ca = '';
let untrustedCa = '';

beforeAll(async () => {
  const certificates = await makeBrokerCertificates(join(certificatesDir, 'trusted'));
  const other = await makeBrokerCertificates(join(certificatesDir, 'other'));
  ca = readFileSync(certificates.caFile, 'utf8');
  untrustedCa = readFileSync(other.caFile, 'utf8');
  broker = await startPrivateKafka({ saslSsl: { certificates, users: [USER] } });
}, 120_000);

afterAll(async () => {
  await broker?.destroy();
  rmSync(certificatesDir, { recursive: true, force: true });
});

const asUser = (
  mechanism: NonNullable<KafkaSecurity['sasl']>['mechanism'],
  password = USER.password,
): KafkaSecurity => ({
  protocol: 'SASL_SSL',
  tls: { ca },
  sasl: { mechanism, username: USER.username, password },
});

async function failureOf(security: KafkaSecurity): Promise<unknown> {
  const kafka = createKafka({
    brokers: broker!.brokers,
    clientId: 'sasl-ssl-test',
    log: createLogger('sasl-ssl-test', 'silent'),
    security,
  });
  const admin = kafka.admin({ retry: { retries: 0 } });
  try {
    await admin.connect();
    await admin.describeCluster();
    return undefined;
  } catch (err) {
    return err;
  } finally {
    await admin.disconnect().catch(() => {});
  }
}

describe('a private broker with a SASL_SSL listener', () => {
  it.each(['SCRAM-SHA-512', 'SCRAM-SHA-256', 'PLAIN'] as const)(
    'lets the user in with %s',
    async (mechanism) => {
      const { clusterId } = await describeOnce(broker!.brokers, 5_000, asUser(mechanism));
      expect(clusterId).toBe(broker!.clusterId);
    },
  );

  it('refuses a plaintext client', async () => {
    await expect(describeOnce(broker!.brokers, 2_000)).rejects.toThrow();
  });

  it('names a wrong password as a refused login', async () => {
    const failure = securityFailureOf(
      await failureOf(asUser('SCRAM-SHA-512', 'wrong')),
      asUser('SCRAM-SHA-512'),
    );
    expect(failure).toMatch(/^Kafka refused the SASL login of user engage-test with SCRAM-SHA-512/);
  });

  it("names a CA that did not sign the broker's certificate as untrusted", async () => {
    const security: KafkaSecurity = { ...asUser('SCRAM-SHA-512'), tls: { ca: untrustedCa } };
    const failure = securityFailureOf(await failureOf(security), security);
    expect(failure).toMatch(
      /^the Kafka broker's TLS certificate does not verify against the CA in KAFKA_SSL_CA_FILE/,
    );
  });

  it('does not take an unreachable broker for a security failure', async () => {
    const kafka = createKafka({
      brokers: ['127.0.0.1:1'],
      clientId: 'sasl-ssl-test',
      log: createLogger('sasl-ssl-test', 'silent'),
      security: asUser('SCRAM-SHA-512'),
    });
    const admin = kafka.admin({ retry: { retries: 0 } });
    const err = await admin.connect().then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(err).toBeInstanceOf(Error);
    expect(securityFailureOf(err, asUser('SCRAM-SHA-512'))).toBeUndefined();
  });
});
