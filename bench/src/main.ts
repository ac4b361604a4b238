// `npm run bench -- <workload> [--seconds N] [--concurrency N]`: runs a named workload against the
// real local stack and reports throughput and latency beside the raw engine doing the same work.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { findRepoRoot } from '@engage/devstack';
import { printProcessWarnings } from '@engage/devstack/cli/warnings.ts';
import type { RunSummary } from './measure.ts';
import { profileShareNotes } from './profile-shares.ts';
import { defaultSeconds, workloads } from './workloads/index.ts';

printProcessWarnings();

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: {
    seconds: { type: 'string' },
    concurrency: { type: 'string' },
    players: { type: 'string' },
    steps: { type: 'string' },
    'keep-going': { type: 'boolean', default: false },
    'cpu-prof': { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h' },
  },
});

const names = positionals.length > 0 ? positionals : Object.keys(workloads);
if (values.help || names.some((n) => !(n in workloads))) {
  process.stdout.write(
    `usage: npm run bench -- [${Object.keys(workloads).join('|')}] [--seconds N] [--concurrency N] [--players N] [--steps A,B] [--keep-going] [--cpu-prof]\n` +
      '  --seconds: per run (10, or 3 for through-gateway); --players: existing players to seed (through-gateway, pipeline; 100,000)\n' +
      '  --steps: the offered rates to try, events/s (pipeline; 2500 up to 25000); --keep-going: try every step, kept or not (pipeline)\n' +
      '  --cpu-prof: CPU profiles of the process under test to bench/results/<time>-profiles/: the gateway (ingest),\n' +
      '    the rules process (rules), the ledger (ledger), the reads and updates processes (leaderboards),\n' +
      '    the rules and query processes (pipeline)\n',
  );
  process.exit(values.help ? 0 : 2);
}

export interface WorkloadReport {
  workload: string;
  description: string;
  rows: { name: string; summary: RunSummary; units: string }[];
  /** Each row's throughput over the raw engine's, named by row. */
  ratios: Record<string, number>;
  notes: string[];
  /** What the run found, in one plain sentence for the README (older results files have none). */
  headline?: string;
}

const dir = join(findRepoRoot(), 'bench', 'results');
const startedAt = new Date().toISOString().replaceAll(':', '-');
const reports: WorkloadReport[] = [];
for (const name of names) {
  const workload = workloads[name]!;
  const report = await workload({
    seconds: Number(values.seconds ?? defaultSeconds[name] ?? 10),
    concurrency: values.concurrency ? Number(values.concurrency) : undefined,
    players: values.players ? Number(values.players) : undefined,
    steps: values.steps ? values.steps.split(',').map(Number) : undefined,
    keepGoing: values['keep-going'],
    // Relative to the repository, where the services run: no path of this machine in a results note.
    cpuProfileDir: values['cpu-prof'] ? join('bench', 'results', `${startedAt}-profiles`) : undefined,
  });
  // The profiles are written as the workload's processes exit, before it returns.
  if (values['cpu-prof'])
    report.notes.push(
      ...profileShareNotes(join(findRepoRoot(), 'bench', 'results', `${startedAt}-profiles`)),
    );
  print(report);
  reports.push(report);
}
mkdirSync(dir, { recursive: true });
const file = join(dir, `${new Date().toISOString().replaceAll(':', '-')}.json`);
writeFileSync(file, `${JSON.stringify({ machine: machine(), reports }, null, 2)}\n`);
process.stdout.write(`\nresults written to ${file}\n`);
process.exit(0);

function print(report: WorkloadReport) {
  process.stdout.write(`\n== ${report.workload}: ${report.description}\n`);
  process.stdout.write(
    `${'run'.padEnd(34)}${'ops/s'.padStart(10)}${'units/s'.padStart(12)}${'p50 ms'.padStart(9)}${'p90 ms'.padStart(9)}${'p99 ms'.padStart(9)}${'errors'.padStart(8)}\n`,
  );
  for (const row of report.rows) {
    const s = row.summary;
    process.stdout.write(
      `${row.name.padEnd(34)}${fmt(s.opsPerSecond, 10)}${fmt(s.unitsPerSecond, 12)}${fmt(s.p50Ms, 9)}${fmt(s.p90Ms, 9)}${fmt(s.p99Ms, 9)}${fmt(s.errors, 8)}  (${row.units})\n`,
    );
  }
  for (const [name, ratio] of Object.entries(report.ratios))
    process.stdout.write(`ratio ${name}: ${ratio.toFixed(2)}\n`);
  for (const note of report.notes) process.stdout.write(`note: ${note}\n`);
}

function fmt(n: number, width: number) {
  return (Number.isInteger(n) ? String(n) : n.toFixed(1)).padStart(width);
}

function machine() {
  return {
    node: process.version,
    platform: process.platform,
    arch: process.arch,
    cpus: globalThis.navigator?.hardwareConcurrency ?? 0,
  };
}
