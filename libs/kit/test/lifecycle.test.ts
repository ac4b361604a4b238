import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const lifecycleModule = fileURLToPath(new URL('../src/lifecycle.ts', import.meta.url));
const loggerModule = fileURLToPath(new URL('../src/logger.ts', import.meta.url));

/** Runs `body` in a process of its own with `lifecycle` (one closer that prints) in scope. */
function runWithLifecycle(body: string) {
  const script = `
    import { Lifecycle } from ${JSON.stringify(lifecycleModule)};
    import { createLogger } from ${JSON.stringify(loggerModule)};
    const lifecycle = new Lifecycle(createLogger('test', 'fatal'), 5000);
    lifecycle.onShutdown('pool', () => console.log('closed pool'));
    setInterval(() => {}, 1000);
    ${body}
  `;
  return spawnSync(process.execPath, ['--input-type=module', '-e', script], {
    encoding: 'utf8',
    timeout: 20_000,
  });
}

describe('Lifecycle.fail', () => {
  it('logs the failure, runs the closers and exits with 1 (a process left running would do nothing)', () => {
    const run = runWithLifecycle(`lifecycle.fail('the events consumer stopped', new Error('given up'));`);
    expect(run.status).toBe(1);
    expect(run.stdout).toContain('closed pool');
    const fatal = run.stdout.split('\n').find((line) => line.includes('"level":60'));
    expect(JSON.parse(fatal!)).toMatchObject({
      msg: 'the events consumer stopped',
      err: { message: 'given up' },
    });
  });
});
