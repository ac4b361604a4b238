import { type HttpApp, problem } from '@engage/kit';
import { type Admission, createInflightLimiter, InflightLimitUnavailable, type Redis } from '@engage/redis';
import type { Logger } from 'pino';
import '../../http/api-key-scope.ts';
import type { OrganizationLimitEnv } from './env.ts';
import { keepSlots } from './kept-slots.ts';
import { LocalLimit } from './local-limit.ts';
import {
  abandoned,
  fallbacks,
  organizationSlotsAtAdmission,
  refusals,
  requestsWaiting,
  slotsHeld,
} from './metrics.ts';
import type { RefusalTally } from './refusal-tally.ts';
import { takeSlotForResponse } from './response-slot.ts';

/** The contract's limits: per organization, shared by all its keys, environments and our replicas. */
export const ORGANIZATION_IN_FLIGHT = 16;
export const ORGANIZATION_WAITING = 8;
/** Seconds a refused caller is told to wait before sending again. */
const RETRY_AFTER_SECONDS = 1;
const UNAVAILABLE_LOG_INTERVAL_MS = 10_000;

export type OrganizationAdmission = Admission & { mode?: 'shared' | 'fallback' };

export interface OrganizationLimit {
  acquire(organizationId: string, signal?: AbortSignal): Promise<OrganizationAdmission>;
  /** Gives back the slots this replica keeps (kept-slots.ts); called when it stops. */
  close?(): void;
}

/**
 * The limit on Redis, shared by every gateway replica. While Redis is unreachable each replica
 * admits a fixed share of its own (ORGANIZATION_LIMIT_FALLBACK_IN_FLIGHT, half as many waiting),
 * requests still running here on slots from Redis included: requests keep flowing, bounded per
 * replica, instead of failing open or closed.
 */
export function createOrganizationLimit(options: {
  redis: Redis;
  keyPrefix: string;
  env: OrganizationLimitEnv;
  log: Logger;
}): OrganizationLimit {
  const { env, log } = options;
  let lastWarning = 0;
  const warn = (err: unknown) => {
    if (Date.now() - lastWarning < UNAVAILABLE_LOG_INTERVAL_MS) return;
    lastWarning = Date.now();
    log.warn({ err: String(err) }, 'organization limit: Redis unreachable, using the per-replica share');
  };
  // Connection errors surface here too (rate-limited) instead of as ioredis's unhandled-error noise.
  options.redis.on('error', warn);
  const redisLimit = createInflightLimiter({
    redis: options.redis,
    keyPrefix: options.keyPrefix,
    settings: {
      maxActive: ORGANIZATION_IN_FLIGHT,
      maxWaiting: ORGANIZATION_WAITING,
      leaseMs: env.ORGANIZATION_LIMIT_LEASE_MS,
      maxWaitMs: env.ORGANIZATION_LIMIT_MAX_WAIT_MS,
    },
    onError: warn,
  });
  const shared = keepSlots(redisLimit, keptSlotSettings(env));
  // Requests of each organization running here on slots from Redis (kept slots included): counted
  // in the fallback share, so a slot held from before Redis went away never runs beside a full share.
  const sharedRunning = new Map<string, number>();
  const local = new LocalLimit({
    maxActive: env.ORGANIZATION_LIMIT_FALLBACK_IN_FLIGHT,
    maxWaiting: Math.max(1, Math.floor(env.ORGANIZATION_LIMIT_FALLBACK_IN_FLIGHT / 2)),
    maxWaitMs: env.ORGANIZATION_LIMIT_MAX_WAIT_MS,
    alsoRunning: (organizationId) => sharedRunning.get(organizationId) ?? 0,
  });
  const runningShared = (organizationId: string, admission: Admission): Admission => {
    if (admission.outcome !== 'admitted') return admission;
    sharedRunning.set(organizationId, (sharedRunning.get(organizationId) ?? 0) + 1);
    let ended = false;
    return {
      ...admission,
      release: () => {
        if (ended) return;
        ended = true;
        const left = (sharedRunning.get(organizationId) ?? 1) - 1;
        if (left > 0) sharedRunning.set(organizationId, left);
        else sharedRunning.delete(organizationId);
        admission.release();
        local.wake(organizationId);
      },
    };
  };

  return {
    async acquire(organizationId, signal) {
      try {
        const admission = runningShared(organizationId, await shared.acquire(organizationId, signal));
        return { ...admission, mode: 'shared' };
      } catch (err) {
        if (!(err instanceof InflightLimitUnavailable)) throw err;
        warn(err);
        fallbacks.inc();
        return { ...(await local.acquire(organizationId, signal)), mode: 'fallback' };
      }
    },
    close: () => shared.handBackAll(),
  };
}

/**
 * A kept slot no request of this replica took for this long goes back: steady traffic reuses its
 * slots far more often, and an organization that went quiet holds none a moment later.
 */
const KEPT_SLOT_IDLE_MS = 1_000;

/** Checks at least twice a lease; a slot idle for a second (half a lease at most) goes back. */
export const keptSlotSettings = (env: OrganizationLimitEnv) => ({
  checkMs: Math.min(env.ORGANIZATION_LIMIT_KEEP_SLOT_MS, env.ORGANIZATION_LIMIT_LEASE_MS / 2),
  idleMs: Math.min(KEPT_SLOT_IDLE_MS, env.ORGANIZATION_LIMIT_LEASE_MS / 2),
});

export const tooManyConcurrentRequests = () =>
  problem(
    'tenant.too_many_concurrent_requests',
    `At most ${ORGANIZATION_IN_FLIGHT} requests of an organization run at once and ${ORGANIZATION_WAITING} wait; send fewer at once.`,
    { inFlightLimit: ORGANIZATION_IN_FLIGHT, waitingLimit: ORGANIZATION_WAITING },
    { 'retry-after': String(RETRY_AFTER_SECONDS) },
  );

/**
 * Every request authenticated with a project key takes one slot of its organization before its
 * body is read, and gives it back when its response closes: finished, failed, timed out or the
 * client gone, whichever path it took (takeSlotForResponse). The hook runs after authentication
 * (it needs the organization) and before any handler writes.
 */
export function registerOrganizationLimit(
  app: HttpApp,
  limit: OrganizationLimit,
  tally?: RefusalTally,
): void {
  // Settled when the request's handling is over: its answer is being sent (onSend runs for
  // answers and errors alike, even to a client that has gone) or its response is done.
  const handlingEnded = new WeakMap<object, () => void>();
  const endHandling = async (request: object) => handlingEnded.get(request)?.();
  app.addHook('onSend', async (request, _reply, payload) => {
    await endHandling(request);
    return payload;
  });
  app.addHook('onResponse', endHandling);
  app.addHook('preParsing', async (request, reply, payload) => {
    const organizationId = request.environment?.organizationId;
    if (!organizationId) return payload;
    const handled = new Promise<void>((resolve) => handlingEnded.set(request, resolve));
    requestsWaiting.inc();
    let admission: OrganizationAdmission;
    try {
      admission = await takeSlotForResponse(reply.raw, handled, async (gone) =>
        counted(await limit.acquire(organizationId, gone)),
      );
    } finally {
      requestsWaiting.dec();
    }
    if (admission.outcome === 'admitted') return payload;
    if (admission.outcome === 'refused') {
      refusals.inc({ reason: admission.reason });
      tally?.refused(organizationId);
    } else abandoned.inc();
    // An aborted request has no one to answer; the refusal only ends its handling.
    throw tooManyConcurrentRequests();
  });
}

/** Counts a granted slot in the metrics until it is given back. */
function counted(admission: OrganizationAdmission): OrganizationAdmission {
  if (admission.outcome !== 'admitted') return admission;
  const mode = admission.mode ?? 'shared';
  slotsHeld.inc({ mode });
  if (mode === 'shared') organizationSlotsAtAdmission.observe(admission.inUse);
  let held = true;
  return {
    ...admission,
    release: () => {
      if (!held) return;
      held = false;
      slotsHeld.dec({ mode });
      admission.release();
    },
  };
}
