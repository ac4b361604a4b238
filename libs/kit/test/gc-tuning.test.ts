import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { baseEnv, parseEnv } from '../src/env.ts';
import { markingTriggerFlags } from '../src/gc-tuning.ts';

const gcTuningModule = fileURLToPath(new URL('../src/gc-tuning.ts', import.meta.url));

/** Calls tuneGarbageCollector(percent) in a process of its own (V8 flags are process-wide). */
function tuneInChild(percent: number) {
  const script = `
    import { tuneGarbageCollector } from ${JSON.stringify(gcTuningModule)};
    tuneGarbageCollector(${percent});
    console.log('tuned');
  `;
  return spawnSync(process.execPath, ['--input-type=module', '-e', script], {
    encoding: 'utf8',
    timeout: 20_000,
  });
}

describe('tuneGarbageCollector', () => {
  it('starts marking at the given share and finishes at the latest at 95 %', () => {
    expect(markingTriggerFlags(80)).toEqual([
      '--incremental-marking-soft-trigger=80',
      '--incremental-marking-hard-trigger=95',
    ]);
    expect(markingTriggerFlags(95)).toEqual([
      '--incremental-marking-soft-trigger=95',
      '--incremental-marking-hard-trigger=95',
    ]);
  });

  it('leaves V8 alone at 0', () => {
    expect(markingTriggerFlags(0)).toEqual([]);
  });

  it('names flags this V8 takes at the values given', () => {
    const flags = markingTriggerFlags(80);
    const run = spawnSync(process.execPath, [...flags, '--print-flag-values', '-e', ''], {
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(run.status).toBe(0);
    const values = run.stdout.split('\n');
    for (const flag of flags) expect(values).toContain(flag);
  });

  it('sets them at run time without V8 refusing one', () => {
    const run = tuneInChild(80);
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('tuned');
    expect(run.stderr).not.toMatch(/unrecognized flag/i);
  });
});

describe('GC_MARKING_START_PERCENT', () => {
  it('defaults to 80 and accepts 0 to 95', () => {
    expect(parseEnv(baseEnv, {}).GC_MARKING_START_PERCENT).toBe(80);
    expect(parseEnv(baseEnv, { GC_MARKING_START_PERCENT: '0' }).GC_MARKING_START_PERCENT).toBe(0);
    expect(() => parseEnv(baseEnv, { GC_MARKING_START_PERCENT: '96' })).toThrow(/GC_MARKING_START_PERCENT/);
  });
});
