import { createRedis, type Redis } from '@engage/redis';
import { stackConfig, uniqueTopicPrefix } from '@engage/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type AttemptStart,
  createSignInThrottle,
  type SignInThrottleSettings,
} from '../../src/store/sign-in-failures.ts';

const settings: SignInThrottleSettings = {
  freeFailuresPerAccount: 3,
  freeFailuresPerAddress: 5,
  firstDelayMs: 10_000,
  maxDelayMs: 60_000,
  memoryMs: 3_600_000,
};
let replicas: Redis[];

beforeAll(() => {
  // Two connections, as two gateway replicas have.
  replicas = [0, 1].map(() => createRedis(stackConfig().redisUrl));
});
afterAll(async () => {
  for (const redis of replicas) await redis.quit();
});

/** Two replicas' throttles on one clock the test moves. */
function throttles() {
  const clock = { now: Date.now() };
  const prefix = uniqueTopicPrefix();
  const [a, b] = replicas.map((redis) => createSignInThrottle(redis, prefix, settings, () => clock.now));
  return { a: a!, b: b!, clock };
}

const waitOf = (start: AttemptStart) => (start.allowed ? 0 : start.retryAfterSeconds);

describe('sign-in throttle', () => {
  it('never counts a sign-in that succeeds', async () => {
    const { a, b } = throttles();
    for (let i = 0; i < 20; i++) {
      const start = await (i % 2 ? a : b).start('owner@example.test', '203.0.113.1');
      if (!start.allowed) throw new Error(`sign-in ${i + 1} refused`);
      await a.succeeded(start.attempt);
    }
  });

  it('delays an address past its free failures, doubling the delay with every failure', async () => {
    const { a, b, clock } = throttles();
    const address = '203.0.113.2';
    for (let i = 0; i < settings.freeFailuresPerAddress; i++) {
      // Each failure for another email: only the address's count reaches its limit.
      expect((await (i % 2 ? a : b).start(`user-${i}@example.test`, address)).allowed).toBe(true);
    }
    const waits: number[] = [];
    for (let failure = 0; failure < 4; failure++) {
      const refused = await a.start('next@example.test', address);
      expect(refused.allowed).toBe(false);
      waits.push(waitOf(refused));
      clock.now += waitOf(refused) * 1000;
      // The delay is over: one more attempt, failed (never marked as succeeded).
      expect((await b.start(`after-${failure}@example.test`, address)).allowed).toBe(true);
    }
    // The first wait is after the fifth failure: 10 s, then 20, 40, and no more than the maximum.
    expect(waits).toEqual([10, 20, 40, 60]);
    const capped = await a.start('next@example.test', address);
    expect(waitOf(capped)).toBe(60);
    // Another address is not delayed.
    expect((await a.start('next@example.test', '203.0.113.3')).allowed).toBe(true);
  });

  it("delays an account's failing addresses only: the operator still signs in from another", async () => {
    const { a, b, clock } = throttles();
    const email = 'owner@example.test';
    for (let i = 0; i < settings.freeFailuresPerAccount; i++) {
      // A guesser at three addresses of its own.
      expect((await a.start(email, `198.51.100.${i % 3}`)).allowed).toBe(true);
    }
    // The third failure on the account delays the addresses that failed on it.
    for (let i = 0; i < 3; i++) {
      expect(waitOf(await a.start(email, `198.51.100.${i}`))).toBe(10);
    }
    // The operator, from an address without failures, signs in.
    const owner = await b.start(email, '192.0.2.10');
    if (!owner.allowed) throw new Error('the operator was locked out');
    await b.succeeded(owner.attempt);
    // That success took back its own count only: the guessers still wait.
    expect(waitOf(await a.start(email, '198.51.100.1'))).toBe(10);
    clock.now += 10_000;
    expect((await a.start(email, '198.51.100.1')).allowed).toBe(true);
  });

  it('counts attempts that run at once exactly', async () => {
    const { a, b } = throttles();
    const starts = await Promise.all(
      Array.from({ length: 20 }, () => [a, b]).flatMap(([x, y], i) =>
        (i % 2 ? x! : y!).start(`rush-${i}@example.test`, '192.0.2.99'),
      ),
    );
    expect(starts.filter((start) => start.allowed)).toHaveLength(settings.freeFailuresPerAddress);
  });
});
