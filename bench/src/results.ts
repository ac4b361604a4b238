// The results files `npm run bench` writes (bench/results/<time>.json), and the latest report of
// each workload among them.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { WorkloadReport } from './main.ts';

/** What one `npm run bench` writes: the machine it ran on and a report per workload it ran. */
export interface ResultsFile {
  machine: { node: string; platform: string; arch: string; cpus: number };
  reports: WorkloadReport[];
}

/** A workload's report with the file it came from. */
export interface LatestReport {
  /** The results file's name, e.g. `2026-11-21T22-52-10.123Z.json`. */
  file: string;
  /** When the run finished, from the file's name. */
  finishedAt: Date;
  machine: ResultsFile['machine'];
  report: WorkloadReport;
}

/** A results file's name is the time the run finished, in ISO form with `-` for `:`. */
const RESULTS_FILE = /^(\d{4}-\d{2}-\d{2})T(\d{2})-(\d{2})-(\d{2}(?:\.\d+)?)Z\.json$/;

/** The time a results file's name says, or undefined for any other file. */
export function finishedAtOf(file: string): Date | undefined {
  const m = RESULTS_FILE.exec(file);
  return m ? new Date(`${m[1]}T${m[2]}:${m[3]}:${m[4]}Z`) : undefined;
}

/**
 * Of the given results files, the latest report of each workload: a run of one workload does not
 * hide the others' figures from earlier runs. Ordered by workload name.
 */
export function latestReports(files: { name: string; content: ResultsFile }[]): LatestReport[] {
  const latest = new Map<string, LatestReport>();
  const dated = files
    .map((f) => ({ ...f, finishedAt: finishedAtOf(f.name) }))
    .filter((f): f is typeof f & { finishedAt: Date } => f.finishedAt !== undefined)
    .sort((a, b) => a.finishedAt.getTime() - b.finishedAt.getTime());
  for (const f of dated) {
    for (const report of f.content.reports) {
      latest.set(report.workload, {
        file: f.name,
        finishedAt: f.finishedAt,
        machine: f.content.machine,
        report,
      });
    }
  }
  return [...latest.values()].sort((a, b) => a.report.workload.localeCompare(b.report.workload));
}

/** Every results file in `dir` (profiles and other files are left out); none when it is missing. */
export function readResultsDir(dir: string): { name: string; content: ResultsFile }[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
  return names
    .filter((name) => finishedAtOf(name) !== undefined)
    .map((name) => ({ name, content: JSON.parse(readFileSync(join(dir, name), 'utf8')) as ResultsFile }));
}
