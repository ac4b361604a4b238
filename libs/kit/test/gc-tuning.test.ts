import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { baseEnv, parseEnv } from '../src/env.ts';

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
  it('sets flags this V8 knows (an unknown flag would only be reported on stderr)', () => {
    const run = tuneInChild(80);
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('tuned');
    expect(run.stderr).not.toMatch(/unrecognized flag/i);
  });

  it('leaves V8 alone at 0', () => {
    const run = tuneInChild(0);
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('tuned');
    expect(run.stderr).not.toMatch(/flag/i);
  });
});

describe('GC_MARKING_START_PERCENT', () => {
  it('defaults to 80 and accepts 0 to 95', () => {
    expect(parseEnv(baseEnv, {}).GC_MARKING_START_PERCENT).toBe(80);
    expect(parseEnv(baseEnv, { GC_MARKING_START_PERCENT: '0' }).GC_MARKING_START_PERCENT).toBe(0);
    expect(() => parseEnv(baseEnv, { GC_MARKING_START_PERCENT: '96' })).toThrow(/GC_MARKING_START_PERCENT/);
  });
});
