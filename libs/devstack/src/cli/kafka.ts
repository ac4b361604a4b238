// Local Kafka for development: `node libs/devstack/src/cli/kafka.ts start|stop|status|logs`.
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { ensureKafka, ensureKafkaJars, kafkaStatus, stopKafka } from '../kafka/broker.ts';
import { makeBrokerCertificates } from '../kafka/certificates.ts';
import { kafkaPaths } from '../kafka/paths.ts';
import { startPrivateKafka } from '../kafka/private-broker.ts';
import { printProcessWarnings } from './warnings.ts';

printProcessWarnings();

const USAGE = `usage: kafka.ts <command> [options]
  start            fetch the pinned jars if needed, format storage, start the broker detached
  stop             stop the local broker (SIGTERM, then SIGKILL after 30 s)
  status           print whether a broker answers, its pid and bootstrap servers
  logs [-n N]      print the last N lines (default 100) of the broker log
  sasl-ssl         run a second, throwaway broker with a SASL_SSL listener until Ctrl-C, and
                   print the settings that connect engage to it (KAFKA_BROKERS=… npm start)
Set KAFKA_BROKERS=host:port[,...] to use an existing cluster instead.`;

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: {
    lines: { type: 'string', short: 'n', default: '100' },
    help: { type: 'boolean', short: 'h', default: false },
  },
});

const command = positionals[0];
const log = (line: string) => process.stderr.write(`[kafka] ${line}\n`);

async function main(): Promise<number> {
  if (values.help || !command) {
    process.stdout.write(`${USAGE}\n`);
    return command || values.help ? 0 : 2;
  }
  switch (command) {
    case 'start': {
      const kafka = await ensureKafka({ log });
      process.stdout.write(`${kafka.brokers.join(',')}\n`);
      return 0;
    }
    case 'stop':
      await stopKafka({ log });
      return 0;
    case 'status': {
      const status = await kafkaStatus();
      const pid = status.pid === undefined ? '' : ` (pid ${status.pid})`;
      process.stdout.write(
        `${status.running ? 'running' : 'not running'}${pid} ${status.brokers.join(',')}\n`,
      );
      return status.running ? 0 : 1;
    }
    case 'logs': {
      const file = kafkaPaths().serverLog;
      if (!existsSync(file)) {
        log(`no log yet at ${file}`);
        return 1;
      }
      const n = Math.max(1, Number.parseInt(values.lines, 10) || 100);
      const lines = readFileSync(file, 'utf8').trimEnd().split('\n');
      process.stdout.write(`${lines.slice(-n).join('\n')}\n`);
      return 0;
    }
    case 'sasl-ssl':
      await runSaslSslBroker();
      return 0;
    default:
      process.stderr.write(`unknown command: ${command}\n${USAGE}\n`);
      return 2;
  }
}

/** A private broker whose only client listener is SASL_SSL, with a CA and a SCRAM user made here. */
async function runSaslSslBroker(): Promise<void> {
  await ensureKafkaJars({ log });
  const dir = mkdtempSync(join(tmpdir(), 'engage-sasl-ssl-'));
  try {
    const certificates = await makeBrokerCertificates(dir);
    const user = { username: 'engage', password: randomBytes(16).toString('hex') };
    const passwordFile = join(dir, 'password');
    writeFileSync(passwordFile, user.password, { mode: 0o600 });
    // StorageTool prints every SCRAM credential it adds: not for the terminal.
    const quiet = (line: string) => line.startsWith('storage: ') || log(line);
    const broker = await startPrivateKafka({ log: quiet, saslSsl: { certificates, users: [user] } });
    try {
      const settings = {
        KAFKA_BROKERS: broker.brokers.join(','),
        KAFKA_SECURITY_PROTOCOL: 'SASL_SSL',
        KAFKA_SSL_CA_FILE: certificates.caFile,
        KAFKA_SASL_MECHANISM: 'SCRAM-SHA-512',
        KAFKA_SASL_USERNAME: user.username,
        KAFKA_SASL_PASSWORD_FILE: passwordFile,
      };
      log('SASL_SSL broker ready (SCRAM-SHA-512, SCRAM-SHA-256 and PLAIN); Ctrl-C stops and deletes it');
      process.stdout.write(
        `${Object.entries(settings)
          .map(([key, value]) => `export ${key}=${value}`)
          .join('\n')}\n`,
      );
      const awake = setInterval(() => {}, 60_000); // a signal listener alone keeps no process running
      await Promise.race([once(process, 'SIGINT'), once(process, 'SIGTERM')]);
      clearInterval(awake);
    } finally {
      await broker.destroy();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
