import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { renderFigures, renderSummary, replaceBlock } from '../src/figures.ts';
import { finishedAtOf, latestReports, readResultsDir } from '../src/results.ts';

const fixtures = fileURLToPath(new URL('./fixtures/results', import.meta.url));
const workloads = ['ingest', 'ledger', 'rules'];

describe('the latest results of each workload', () => {
  it('reads only results files, and takes each workload from the latest file that ran it', () => {
    const files = readResultsDir(fixtures);
    expect(files.map((f) => f.name).sort()).toEqual([
      '2026-01-01T10-00-00.000Z.json',
      '2026-01-02T09-30-00.000Z.json',
    ]);
    const latest = latestReports(files);
    expect(latest.map((l) => [l.report.workload, l.file, l.machine.cpus])).toEqual([
      ['ingest', '2026-01-02T09-30-00.000Z.json', 4],
      ['ledger', '2026-01-01T10-00-00.000Z.json', 2],
    ]);
  });

  it('orders files by the time in their name, not by the order they are listed in', () => {
    const [older, newer] = readResultsDir(fixtures).sort((a, b) => a.name.localeCompare(b.name));
    const latest = latestReports([newer!, older!]);
    expect(latest.find((l) => l.report.workload === 'ingest')?.file).toBe('2026-01-02T09-30-00.000Z.json');
  });

  it('reads the time a results file was written from its name', () => {
    expect(finishedAtOf('2026-11-21T22-52-10.123Z.json')?.toISOString()).toBe('2026-11-21T22:52:10.123Z');
    expect(finishedAtOf('2026-11-21T22-52-10.123Z-profiles')).toBeUndefined();
    expect(finishedAtOf('notes.json')).toBeUndefined();
  });

  it('has nothing for a missing results directory', () => {
    expect(readResultsDir(fileURLToPath(new URL('./fixtures/none', import.meta.url)))).toEqual([]);
  });
});

describe('the figures table', () => {
  const latest = latestReports(readResultsDir(fixtures));

  it('lists every row of each workload with its ratios and notes, and the workloads without results', () => {
    expect(renderFigures(latest, workloads)).toBe(
      [
        '### `ingest` (2026-01-02 09:30 UTC, 4 CPUs, Node v24.21.0)',
        '',
        'POST /v1/events, 1000 events per batch. From `bench/results/2026-01-02T09-30-00.000Z.json`.',
        '',
        '| run                            | operation       |   ops/s | units/s | p50 ms | p90 ms | p99 ms | max ms | errors |',
        '| ------------------------------ | --------------- | ------: | ------: | -----: | -----: | -----: | -----: | -----: |',
        '| engage gateway                 | batches of 1000 |      80 |  80,000 |    100 |    130 |    180 |    200 |      0 |',
        '| raw kafkajs consumer \\| decode | events          | 200,000 | 200,000 |      — |      — |      — |      — |      0 |',
        '',
        'Ratios: engage gateway / raw kafkajs: 0.95.',
        '',
        '- the newer run',
        '',
        '### `ledger` (2026-01-01 10:00 UTC, 2 CPUs, Node v24.21.0)',
        '',
        'Keyed adjustments and purchases sent to the ledger. From `bench/results/2026-01-01T10-00-00.000Z.json`.',
        '',
        '| run                 | operation  | ops/s | units/s | p50 ms | p90 ms | p99 ms | max ms | errors |',
        '| ------------------- | ---------- | ----: | ------: | -----: | -----: | -----: | -----: | -----: |',
        '| ledger spread       | operations | 3,012 |   3,012 |    9.9 |     14 |   22.5 |    130 |      2 |',
        '| raw postgres spread | statements | 9,100 |   9,100 |    3.1 |      5 |    8.3 |     40 |      0 |',
        '',
        'Ratios: ledger spread / raw postgres spread: 0.33.',
        '',
        '- raw postgres is one conditional UPDATE per statement',
        '',
        'No results yet for `rules`.',
      ].join('\n'),
    );
  });

  it('summarises each workload that has results in one sentence: its headline, else its ratios', () => {
    const headlined = latest.map((l) =>
      l.report.workload === 'ingest'
        ? { ...l, report: { ...l.report, headline: 'accepts 9,500 events/s' } }
        : l,
    );
    expect(renderSummary(headlined, workloads)).toBe(
      [
        '| workload | last run                                    | what it found (same run)                  |',
        '| -------- | ------------------------------------------- | ----------------------------------------- |',
        '| `ingest` | 2026-01-02 09:30 UTC, 4 CPUs, Node v24.21.0 | Accepts 9,500 events/s.                   |',
        '| `ledger` | 2026-01-01 10:00 UTC, 2 CPUs, Node v24.21.0 | Ledger spread / raw postgres spread 0.33. |',
      ].join('\n'),
    );
  });
});

describe('the generated block of a document', () => {
  const doc = [
    '# Title',
    '',
    'before',
    '<!-- bench:figures:start -->',
    'old',
    '<!-- bench:figures:end -->',
    'after',
  ].join('\n');

  it('replaces only what lies between its markers, the same way every time', () => {
    const once = replaceBlock(doc, 'figures', 'new table');
    expect(once).toBe(
      [
        '# Title',
        '',
        'before',
        '<!-- bench:figures:start -->',
        '<!-- generated by `npm run bench:report` from bench/results/: do not edit by hand -->',
        '',
        'new table',
        '',
        '<!-- bench:figures:end -->',
        'after',
      ].join('\n'),
    );
    expect(replaceBlock(once, 'figures', 'new table')).toBe(once);
  });

  it('refuses a document without the block', () => {
    expect(() => replaceBlock(doc, 'summary', 'x')).toThrow('bench:summary:start');
    expect(() =>
      replaceBlock('<!-- bench:figures:end -->\n<!-- bench:figures:start -->', 'figures', 'x'),
    ).toThrow();
  });
});
