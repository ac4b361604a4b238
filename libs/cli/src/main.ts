#!/usr/bin/env node
import { CommanderError } from 'commander';
import { AdminApiError } from './admin-client.ts';
import { buildProgram } from './program.ts';

try {
  await buildProgram().parseAsync(process.argv);
} catch (err) {
  if (err instanceof CommanderError) process.exit(err.exitCode);
  process.stderr.write(
    `engage: ${err instanceof AdminApiError || err instanceof Error ? err.message : String(err)}\n`,
  );
  process.exit(1);
}
