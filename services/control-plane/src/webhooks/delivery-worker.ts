import { Counter, Histogram, type Logger, metricsRegistry } from '@engage/kit';
import type { Pool } from '@engage/postgres';
import { Agent, request } from 'undici';
import { isRefusedHost, REFUSED_ADDRESS_TEXT } from './domain/address.ts';
import { pauseReasonOnExhaustion } from './domain/pause.ts';
import { afterFailure, type RetrySchedule } from './domain/retry.ts';
import { secretsInUse, signDelivery } from './domain/signature.ts';
import { DeliverySlots } from './domain/slots.ts';
import { PRIVATE_ADDRESS_CODE, publicOnlyLookup } from './public-lookup.ts';
import {
  type ClaimedDelivery,
  claimDueDeliveries,
  deleteFinishedDeliveries,
  recordAttempt,
} from './store.ts';

export interface DeliveryWorkerSettings {
  schedule: RetrySchedule;
  /** An attempt not answered within this is a failure. */
  timeoutMs: number;
  /** How often the worker looks for due deliveries when nothing woke it. */
  pollIntervalMs: number;
  /** Deliveries sent at the same time by this replica at most. */
  concurrency: number;
  /** Of those, for one organization at most (its receivers' slowness stays its own). */
  concurrencyPerOrganization: number;
  /** Of those, to one endpoint at most. */
  concurrencyPerEndpoint: number;
  /** Delivered and failed deliveries are deleted this long after they were created. */
  retentionMs: number;
  /** Whether receivers may be on loopback or private networks (else such connections are refused). */
  allowPrivateAddresses: boolean;
}

export interface DeliveryWorker {
  /** Looks for due deliveries now (after a commit that queued some). */
  kick: () => void;
  /** Lets the attempts in flight finish and records them. */
  stop: () => Promise<void>;
}

const attempts = new Counter({
  name: 'engage_webhook_attempts_total',
  help: 'Webhook delivery attempts by outcome: delivered, retry (failed, tried again later) or exhausted (failed for good, endpoint paused).',
  labelNames: ['outcome'],
  registers: [metricsRegistry],
});

const attemptDuration = new Histogram({
  name: 'engage_webhook_attempt_duration_seconds',
  help: 'Time from sending a webhook delivery to its answer (or failure).',
  buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [metricsRegistry],
});

/** Longer than any attempt with its recording: a delivery leased by a dead worker is sent again after it. */
const LEASE_MARGIN_MS = 5_000;
const SWEEP_EVERY_MS = 60 * 60 * 1000;

/**
 * Sends the deliveries due, each chain's oldest first (see claimDueDeliveries), with their
 * signatures; records each attempt's status, response time and error; schedules the retry or,
 * once the schedule is spent, fails the delivery and pauses its endpoint. One runs in every
 * gateway replica: the leases share the work.
 */
export function startDeliveryWorker(deps: {
  pool: Pool;
  log: Logger;
  settings: DeliveryWorkerSettings;
}): DeliveryWorker {
  const { pool, log, settings } = deps;
  const agent = new Agent({
    connect: {
      timeout: settings.timeoutMs,
      ...(settings.allowPrivateAddresses ? {} : { lookup: publicOnlyLookup() }),
    },
    headersTimeout: settings.timeoutMs,
    bodyTimeout: settings.timeoutMs,
  });
  let running = true;
  let wake: (() => void) | undefined;
  let woken = false;

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      if (woken || !running) {
        woken = false;
        resolve();
        return;
      }
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        wake = undefined;
        woken = false;
        resolve();
      }
      wake = done;
    });

  // Attempts run side by side up to `concurrency`, each organization and endpoint up to its own cap
  // of that; a slot that frees wakes the loop to lease more, so a slow receiver holds only its own
  // slots, not the others' deliveries.
  const slots = new DeliverySlots({
    total: settings.concurrency,
    perOrganization: Math.min(settings.concurrencyPerOrganization, settings.concurrency),
    perEndpoint: Math.min(settings.concurrencyPerEndpoint, settings.concurrency),
  });
  const inFlight = new Set<Promise<void>>();
  const loop = (async () => {
    while (running) {
      let leased = 0;
      if (slots.free > 0) {
        try {
          const holders = slots.holders();
          const claimed = await claimDueDeliveries(pool, {
            limit: slots.free,
            leaseMs: settings.timeoutMs + LEASE_MARGIN_MS,
            perOrganization: slots.caps.perOrganization,
            perEndpoint: slots.caps.perEndpoint,
            organizationsInFlight: holders.organizations,
            endpointsInFlight: holders.endpoints,
          });
          leased = claimed.length;
          for (const delivery of claimed) {
            slots.take(delivery);
            const sending = attempt(delivery)
              .catch((err: unknown) =>
                log.warn({ err, deliveryId: delivery.deliveryId }, 'a webhook attempt could not be recorded'),
              )
              .finally(() => {
                slots.release(delivery);
                inFlight.delete(sending);
                kick();
              });
            inFlight.add(sending);
          }
        } catch (err) {
          log.warn({ err }, 'webhook deliveries could not be leased; trying again');
        }
      }
      // A claim passes over organizations at their cap: whoever it left out is looked for at once.
      if (leased === 0 || slots.free === 0) await sleep(settings.pollIntervalMs);
    }
    await Promise.all(inFlight);
  })();

  function kick() {
    if (wake) wake();
    else woken = true;
  }

  async function attempt(delivery: ClaimedDelivery): Promise<void> {
    const at = new Date();
    const body = JSON.stringify(delivery.payload);
    const headers = signDelivery({
      deliveryId: delivery.deliveryId,
      body,
      at,
      secrets: secretsInUse(delivery, at),
    });
    const started = performance.now();
    let responseStatus: number | null = null;
    let error: string | null = null;
    try {
      // An address written in the URL is connected to without a lookup: checked here instead.
      if (!settings.allowPrivateAddresses && isRefusedHost(new URL(delivery.url).hostname)) {
        throw Object.assign(new Error('refused address'), { code: PRIVATE_ADDRESS_CODE });
      }
      const response = await request(delivery.url, {
        method: 'POST',
        dispatcher: agent,
        headers: { ...headers, 'content-type': 'application/json', 'user-agent': 'engage-webhooks/1' },
        body,
        signal: AbortSignal.timeout(settings.timeoutMs),
      });
      responseStatus = response.statusCode;
      await response.body.dump();
      if (responseStatus < 200 || responseStatus > 299) error = `HTTP ${responseStatus}`;
    } catch (err) {
      error = describe(err, settings.timeoutMs);
    }
    const responseTimeMs = Math.round(performance.now() - started);
    const number = delivery.attempts + 1;
    const decision = error === null ? undefined : afterFailure(settings.schedule, number, new Date());
    const exhausted = decision?.kind === 'exhausted';
    const recorded = await recordAttempt(pool, {
      deliveryId: delivery.deliveryId,
      webhookId: delivery.webhookId,
      attempt: number,
      at,
      responseStatus,
      responseTimeMs,
      error,
      delivered: error === null,
      retryAt: decision?.kind === 'retry' ? decision.at : null,
      pauseReason: exhausted ? pauseReasonOnExhaustion({ attempts: number, lastError: error! }) : null,
    });
    attempts.inc({ outcome: error === null ? 'delivered' : exhausted ? 'exhausted' : 'retry' });
    attemptDuration.observe(responseTimeMs / 1000);
    if (recorded && exhausted) {
      log.warn({ webhookId: delivery.webhookId, deliveryId: delivery.deliveryId }, 'webhook endpoint paused');
    }
  }

  const sweeper = setInterval(() => {
    deleteFinishedDeliveries(pool, settings.retentionMs).catch((err: unknown) =>
      log.warn({ err }, 'deleting old webhook deliveries failed; will try again'),
    );
  }, SWEEP_EVERY_MS);
  sweeper.unref();

  return {
    kick,
    stop: async () => {
      running = false;
      clearInterval(sweeper);
      wake?.();
      await loop;
      await agent.close();
    },
  };
}

/** Connection failures in words an operator reads on the delivery (not the system's error codes). */
const NETWORK_ERRORS: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset by the receiver',
  EPIPE: 'connection closed by the receiver',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host name lookup failed',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  UND_ERR_CONNECT_TIMEOUT: 'could not connect in time',
  UND_ERR_SOCKET: 'connection closed by the receiver',
  CERT_HAS_EXPIRED: 'TLS certificate expired',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'TLS certificate not trusted (self-signed)',
  SELF_SIGNED_CERT_IN_CHAIN: 'TLS certificate not trusted (self-signed)',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'TLS certificate not trusted',
  ERR_TLS_CERT_ALTNAME_INVALID: 'TLS certificate is for another host',
  [PRIVATE_ADDRESS_CODE]: REFUSED_ADDRESS_TEXT,
};

function describe(err: unknown, timeoutMs: number): string {
  const error = err as { name?: string; code?: string; cause?: { code?: string } };
  const code = error.code ?? error.cause?.code;
  if (
    error.name === 'TimeoutError' ||
    code === 'UND_ERR_HEADERS_TIMEOUT' ||
    code === 'UND_ERR_BODY_TIMEOUT'
  ) {
    return `no answer within ${timeoutMs} ms`;
  }
  if (code && NETWORK_ERRORS[code]) return NETWORK_ERRORS[code];
  return 'request failed (no answer read)';
}
