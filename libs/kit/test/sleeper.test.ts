import { describe, expect, it } from 'vitest';
import { createSleeper } from '../src/sleeper.ts';

describe('createSleeper', () => {
  it('sleeps the time asked when nobody wakes it', async () => {
    const started = Date.now();
    await createSleeper().sleep(30);
    expect(Date.now() - started).toBeGreaterThanOrEqual(25);
  });

  it('ends the current sleep at once on wake, and a wake with nobody asleep is lost', async () => {
    const sleeper = createSleeper();
    sleeper.wake();
    let woken = false;
    const sleeping = sleeper.sleep(60_000).then(() => {
      woken = true;
    });
    await Promise.resolve();
    expect(woken).toBe(false);
    sleeper.wake();
    await sleeping;
    expect(woken).toBe(true);
  });
});
