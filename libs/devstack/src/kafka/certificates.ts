import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { run } from './jvm.ts';
import { LOCAL_HOST } from './paths.ts';

/** PEM files of a throwaway certificate authority and a broker certificate it signed. */
export interface BrokerCertificates {
  /** The CA's certificate: what clients trust (KAFKA_SSL_CA_FILE). */
  caFile: string;
  /** The broker's unencrypted PKCS#8 key, then its certificate: a PEM key store for the broker. */
  brokerKeyStoreFile: string;
}

/**
 * Makes a CA and a broker certificate for 127.0.0.1 and localhost with `openssl`, for a test's
 * private broker with a TLS listener. Every call makes a new CA, so a second set is a CA the
 * first broker's certificate does not chain to.
 */
export async function makeBrokerCertificates(dir: string): Promise<BrokerCertificates> {
  mkdirSync(dir, { recursive: true });
  const file = (name: string) => join(dir, name);
  const openssl = (...args: string[]) => run('openssl', args, { cwd: dir, log: () => {} });
  const days = ['-days', '2'];
  await openssl('genpkey', '-algorithm', 'EC', '-pkeyopt', 'ec_paramgen_curve:P-256', '-out', file('ca.key'));
  await openssl(
    'req',
    '-x509',
    '-new',
    '-key',
    file('ca.key'),
    '-subj',
    '/CN=engage test CA',
    ...days,
    '-addext',
    'basicConstraints=critical,CA:TRUE',
    '-addext',
    'keyUsage=critical,keyCertSign,cRLSign',
    '-out',
    file('ca.pem'),
  );
  await openssl(
    'genpkey',
    '-algorithm',
    'EC',
    '-pkeyopt',
    'ec_paramgen_curve:P-256',
    '-out',
    file('broker.key'),
  );
  await openssl(
    'req',
    '-new',
    '-key',
    file('broker.key'),
    '-subj',
    '/CN=localhost',
    '-out',
    file('broker.csr'),
  );
  writeFileSync(
    file('broker.ext'),
    [
      `subjectAltName=IP:${LOCAL_HOST},DNS:localhost`,
      'basicConstraints=CA:FALSE',
      'keyUsage=critical,digitalSignature',
      'extendedKeyUsage=serverAuth',
    ].join('\n'),
  );
  await openssl(
    'x509',
    '-req',
    '-in',
    file('broker.csr'),
    '-CA',
    file('ca.pem'),
    '-CAkey',
    file('ca.key'),
    '-CAcreateserial',
    ...days,
    '-extfile',
    file('broker.ext'),
    '-out',
    file('broker.pem'),
  );
  const keyStore = file('broker-keystore.pem');
  writeFileSync(
    keyStore,
    readFileSync(file('broker.key'), 'utf8') + readFileSync(file('broker.pem'), 'utf8'),
  );
  return { caFile: file('ca.pem'), brokerKeyStoreFile: keyStore };
}
