/**
 * A sleep that can be cut short: a background loop waits between its rounds with `sleep(ms)`, and
 * `wake()` (new work, or shutdown) ends the current wait at once. A wake with nobody asleep is lost,
 * which suits loops that look for work as soon as they wake.
 */
export interface Sleeper {
  sleep(ms: number): Promise<void>;
  wake(): void;
}

export function createSleeper(): Sleeper {
  let wakeNow: (() => void) | undefined;
  return {
    sleep: (ms) =>
      new Promise<void>((resolve) => {
        const timer = setTimeout(finish, ms);
        function finish() {
          clearTimeout(timer);
          wakeNow = undefined;
          resolve();
        }
        wakeNow = finish;
      }),
    wake: () => wakeNow?.(),
  };
}
