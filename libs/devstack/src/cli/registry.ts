// Local schema registry for development: `node libs/devstack/src/cli/registry.ts start|stop|status|logs`.
import { existsSync, readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import {
  ensureLocalRegistry,
  localRegistryStatus,
  registryPaths,
  stopLocalRegistry,
} from '../registry/registry.ts';
import { printProcessWarnings } from './warnings.ts';

printProcessWarnings();

const USAGE = `usage: registry.ts <command> [options]
  start            build Apicurio Registry once (Maven), start it detached, print SCHEMA_REGISTRY_URL
  stop             stop the local registry
  status           print whether it answers, its pid and URL
  logs [-n N]      print the last N lines (default 100) of its log
It keeps schemas in memory: a restart forgets them (services register theirs again at start).`;

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: {
    lines: { type: 'string', short: 'n', default: '100' },
    help: { type: 'boolean', short: 'h', default: false },
  },
});

const command = positionals[0];
const log = (line: string) => process.stderr.write(`[registry] ${line}\n`);

async function main(): Promise<number> {
  if (values.help || !command) {
    process.stdout.write(`${USAGE}\n`);
    return command || values.help ? 0 : 2;
  }
  switch (command) {
    case 'start':
      process.stdout.write(`${await ensureLocalRegistry({ log })}\n`);
      return 0;
    case 'stop':
      await stopLocalRegistry({ log });
      return 0;
    case 'status': {
      const status = await localRegistryStatus();
      const pid = status.pid === undefined ? '' : ` (pid ${status.pid})`;
      process.stdout.write(`${status.running ? 'running' : 'not running'}${pid} ${status.url}\n`);
      return status.running ? 0 : 1;
    }
    case 'logs': {
      const file = registryPaths().log;
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
