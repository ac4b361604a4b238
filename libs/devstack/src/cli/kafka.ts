// Local Kafka for development: `node libs/devstack/src/cli/kafka.ts start|stop|status|logs`.
import { existsSync, readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { ensureKafka, kafkaStatus, stopKafka } from '../kafka/broker.ts';
import { kafkaPaths } from '../kafka/paths.ts';
import { printProcessWarnings } from './warnings.ts';

printProcessWarnings();

const USAGE = `usage: kafka.ts <command> [options]
  start            fetch the pinned jars if needed, format storage, start the broker detached
  stop             stop the local broker (SIGTERM, then SIGKILL after 30 s)
  status           print whether a broker answers, its pid and bootstrap servers
  logs [-n N]      print the last N lines (default 100) of the broker log
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
    default:
      process.stderr.write(`unknown command: ${command}\n${USAGE}\n`);
      return 2;
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
