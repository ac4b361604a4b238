import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { estimatedBytes } from '@engage/rules/application/progress-cache.ts';
import type { WorkloadReport } from '../main.ts';
import { throughputSummary } from '../measure.ts';
import type { WorkloadOptions } from './index.ts';

const run = promisify(execFile);
const FILL = fileURLToPath(new URL('../progress-memory/fill.ts', import.meta.url));
const SIZES = [100_000, 1_000_000];
/** Mission entries per player, each with one objective, beside one streak. */
const MISSIONS = 3;

interface Filled {
  held: number;
  heapBytes: number;
  rssBytes: number;
}

/**
 * What the rules consumer's progress cache holds in memory: 100,000 and 1,000,000 players decoded
 * as the consumer decodes them (three mission entries and a streak each), each size in a Node
 * process of its own, against the estimate the cache bounds itself by.
 */
export async function progressMemory(_options: WorkloadOptions): Promise<WorkloadReport> {
  const estimate = estimatedBytes({
    progress: {
      environmentId: '',
      playerId: '',
      missions: Object.fromEntries(Array.from({ length: MISSIONS }, (_, m) => [`m${m}`, {} as never])),
      streaks: { daily: {} as never },
    },
    layout: [],
  });
  const rows: WorkloadReport['rows'] = [];
  const notes: string[] = [];
  const perPlayer: number[] = [];
  for (const players of SIZES) {
    const started = performance.now();
    const { stdout } = await run(process.execPath, ['--expose-gc', FILL, String(players), String(MISSIONS)], {
      maxBuffer: 1024 * 1024,
    });
    const filled = JSON.parse(stdout) as Filled;
    if (filled.held !== players) throw new Error(`held ${filled.held} of ${players} players`);
    const bytes = filled.heapBytes / players;
    perPlayer.push(bytes);
    rows.push({
      name: `${players.toLocaleString('en')} players held`,
      summary: throughputSummary(players, (performance.now() - started) / 1000),
      units: 'players decoded and held',
    });
    notes.push(
      `${players.toLocaleString('en')} players: heap ${mib(filled.heapBytes)} MiB (${Math.round(bytes).toLocaleString('en')} bytes per player), process RSS ${mib(filled.rssBytes)} MiB`,
    );
  }
  const worst = Math.max(...perPlayer);
  return {
    workload: 'progress-memory',
    description: `the rules consumer's progress cache filled with ${SIZES.map((s) => s.toLocaleString('en')).join(' and ')} players decoded as the consumer decodes them (${MISSIONS} mission entries of one objective and one streak each), each in a Node process of its own`,
    headline: `a held player (${MISSIONS} mission entries, a streak) takes ${Math.round(worst).toLocaleString('en')} bytes of heap against the ${estimate.toLocaleString('en')} the cache counts for it: its budget bounds it to ${(worst / estimate).toFixed(2)}× the budget`,
    rows,
    ratios: { 'heap per player / estimated bytes per player': worst / estimate },
    notes: [
      ...notes,
      `the cache counts ${estimate.toLocaleString('en')} bytes for such a player (PROGRESS_CACHE_MAX_MB is spent by that estimate); rows' rates are how fast one process decodes and holds players, not a target`,
    ],
  };
}

const mib = (bytes: number) => (bytes / 1024 / 1024).toFixed(0);
