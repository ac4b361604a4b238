// A failed integration test often says why only in the log of a service process it spawned (a
// consumer that stopped, a start that failed, a statement that timed out): print those logs with it.
import { spawnedServices } from '@engage/testkit/process.ts';
import { afterEach } from 'vitest';

const LOG_TAIL_CHARS = 20_000;

afterEach(({ task }) => {
  if (task.result?.state !== 'fail') return;
  for (const service of spawnedServices()) {
    process.stderr.write(
      `--- log of the ${service.name} process at ${service.url} (last ${LOG_TAIL_CHARS} characters):\n` +
        `${service.logs().slice(-LOG_TAIL_CHARS)}\n`,
    );
  }
});
