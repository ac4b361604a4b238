import { randomBytes, randomUUID } from 'node:crypto';
import { ensureInfra } from '@engage/devstack';
import { createInflightLimiter, createRedis, inflightKeys } from '@engage/redis';
import type { WorkloadReport } from '../main.ts';
import { drive, Recorder } from '../measure.ts';
import type { WorkloadOptions } from './index.ts';

const ORGANIZATIONS = 64;
const settings = { maxActive: 16, maxWaiting: 8, leaseMs: 10_000, maxWaitMs: 10_000 };

/**
 * The organization limit's cost per request (one acquire and one release, each one Lua script on
 * Redis), spread over many organizations and on one organization held at its limit, beside raw
 * Redis doing the two sorted-set writes of the same bookkeeping without the script.
 */
export async function organizationLimit(options: WorkloadOptions): Promise<WorkloadReport> {
  const concurrency = options.concurrency ?? 32;
  const infra = await ensureInfra({ log: (line) => process.stderr.write(`[bench] ${line}\n`) });
  const prefix = `bench${randomBytes(4).toString('hex')}.`;
  const redis = createRedis(infra.redisUrl);
  await redis.ping();
  try {
    const limiter = createInflightLimiter({ redis, keyPrefix: prefix, settings });
    const cycle = async (organization: string) => {
      const admission = await limiter.acquire(organization);
      if (admission.outcome !== 'admitted') throw new Error(admission.outcome);
      admission.release();
    };
    const spread = await drive(new Recorder(), (_w, i) => cycle(`org-${i % ORGANIZATIONS}`), {
      concurrency,
      seconds: options.seconds,
    });
    // 24 callers on one organization: 16 run, 8 wait their turn; nobody is refused.
    const contended = await drive(new Recorder(), () => cycle('one-org'), {
      concurrency: settings.maxActive + settings.maxWaiting,
      seconds: options.seconds,
    });
    const raw = await drive(
      new Recorder(),
      async (_w, i) => {
        const keys = inflightKeys(prefix, `raw-${i % ORGANIZATIONS}`);
        const token = randomUUID();
        await redis.zadd(keys.active, Date.now() + settings.leaseMs, token);
        await redis.zrem(keys.active, token);
      },
      { concurrency, seconds: options.seconds },
    );
    return {
      workload: 'organization-limit',
      description: `acquire + release of an organization slot over ${ORGANIZATIONS} organizations (concurrency ${concurrency}) and on one organization at its limit (24 callers)`,
      rows: [
        { name: 'engage limiter, spread', summary: spread, units: 'requests' },
        { name: 'engage limiter, one organization at 16 + 8', summary: contended, units: 'requests' },
        { name: 'raw redis ZADD + ZREM', summary: raw, units: 'pairs' },
      ],
      ratios: {
        'engage limiter spread / raw redis': spread.opsPerSecond / raw.opsPerSecond,
        'engage limiter at the limit / raw redis': contended.opsPerSecond / raw.opsPerSecond,
      },
      notes: [
        'each engage cycle is two Lua scripts (sweep, count, admit; sweep, release); the raw pair does no sweep or count',
        'at the limit, waiting callers poll every 25-75 ms or are woken by a release on the same process',
        'errors at the limit are 429s: a caller asks again before its own release (not awaited) has reached Redis, so 25 want a slot',
      ],
    };
  } finally {
    await redis.quit();
  }
}
