// `npm run bench:report`: rewrites the figures in bench/README.md and the summary in README.md from
// the latest results file of each workload in bench/results/.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { findRepoRoot } from '@engage/devstack';
import { type Block, renderFigures, renderSummary, replaceBlock } from './figures.ts';
import { latestReports, readResultsDir } from './results.ts';
import { workloads } from './workloads/index.ts';

const root = findRepoRoot();
const latest = latestReports(readResultsDir(join(root, 'bench', 'results')));
const names = Object.keys(workloads);

const rewrite = (file: string, block: Block, body: string) => {
  const path = join(root, file);
  const before = readFileSync(path, 'utf8');
  const after = replaceBlock(before, block, body);
  if (after !== before) writeFileSync(path, after);
  process.stdout.write(`${file}: ${after === before ? 'unchanged' : 'updated'}\n`);
};

rewrite(join('bench', 'README.md'), 'figures', renderFigures(latest, names));
rewrite('README.md', 'summary', renderSummary(latest, names));
for (const l of latest) process.stdout.write(`  ${l.report.workload}: bench/results/${l.file}\n`);
