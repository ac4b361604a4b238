import { createRedis, type Redis } from '@engage/redis';
import { stackConfig, uniqueTopicPrefix } from '@engage/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSignInAttempts } from '../../src/store/sign-in-attempts.ts';

const limits = { perEmail: 3, perAddress: 5, windowMs: 60_000 };
let replicas: Redis[];

beforeAll(() => {
  // Two connections, as two gateway replicas have.
  replicas = [0, 1].map(() => createRedis(stackConfig().redisUrl));
});
afterAll(async () => {
  for (const redis of replicas) await redis.quit();
});

describe('sign-in attempts', () => {
  it('counts per address across replicas, whatever the email', async () => {
    const prefix = uniqueTopicPrefix();
    const [a, b] = replicas.map((redis) => createSignInAttempts(redis, prefix, limits));
    const verdicts = [];
    for (let i = 0; i < limits.perAddress + 1; i++) {
      verdicts.push(await (i % 2 ? a! : b!).count(`user-${i}@example.test`, '203.0.113.7'));
    }
    expect(verdicts.slice(0, limits.perAddress).every((v) => v.allowed)).toBe(true);
    const refused = verdicts.at(-1)!;
    expect(refused.allowed).toBe(false);
    // The wait is what is left of the window the first attempt opened.
    const wait = refused.allowed ? 0 : refused.retryAfterSeconds;
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(60);
    // Another address is counted apart.
    expect(await a!.count('user-0@example.test', '203.0.113.8')).toEqual({ allowed: true });
  });

  it('counts per email across replicas, whatever the address', async () => {
    const prefix = uniqueTopicPrefix();
    const [a, b] = replicas.map((redis) => createSignInAttempts(redis, prefix, limits));
    const verdicts = [];
    for (let i = 0; i < limits.perEmail + 1; i++) {
      verdicts.push(await (i % 2 ? a! : b!).count('someone@example.test', `198.51.100.${i}`));
    }
    expect(verdicts.map((v) => v.allowed)).toEqual([true, true, true, false]);
  });

  it('exactly as many attempts pass as the limit, however many run at once', async () => {
    const prefix = uniqueTopicPrefix();
    const [a, b] = replicas.map((redis) => createSignInAttempts(redis, prefix, limits));
    const verdicts = await Promise.all(
      Array.from({ length: 20 }, (_, i) => (i % 2 ? a! : b!).count('rush@example.test', `192.0.2.${i}`)),
    );
    expect(verdicts.filter((v) => v.allowed)).toHaveLength(limits.perEmail);
  });
});
