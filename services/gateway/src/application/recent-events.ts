import type { EventItemResult } from '@engage/contracts/http/events.ts';
import type { RecentEventsPage, RecentEventsQuery } from '@engage/contracts/http/recent-events.ts';
import { Counter, type Logger, metricsRegistry, problem } from '@engage/kit';
import type { Redis } from '@engage/redis';
import { itemsToRecord } from '../domain/recent-event.ts';
import { appendRecentItems, markWatched, readRecentItems, watchedForMs } from '../store/recent-events.ts';

export interface RecentEventsSettings {
  /** Most items kept per environment (0: nothing is recorded). */
  maxItems: number;
  /** How long accepted items are recorded after the debugger last asked (it asks while open). */
  watchTtlMs: number;
  /** Redis calls of the recorder in flight on this replica at most; beyond, items are not recorded. */
  maxPendingCalls: number;
}

/**
 * The live event debugger's record. On the ingest path it never waits and never fails: `record`
 * starts one pipelined Redis call per batch and returns; with Redis slow or unreachable, at most
 * `maxPendingCalls` calls are in flight and the batches beyond them are simply not recorded.
 * Refused items are always recorded (they are what an integrating studio needs, and rare); accepted
 * ones only while someone watches the environment, so an environment nobody looks at whose items
 * are accepted costs no write: only a look, at most once a second, at whether it is watched.
 */
export interface RecentEvents {
  record(
    environmentId: string,
    receivedAt: Date,
    items: readonly unknown[],
    results: readonly EventItemResult[],
  ): void;
  read(environmentId: string, query: RecentEventsQuery): Promise<RecentEventsPage>;
  /** Redis calls in flight (for tests of the bound). */
  pendingCalls(): number;
}

/** How often a replica asks Redis whether an environment is watched (only while it sends events). */
const WATCH_REFRESH_MS = 1_000;
const FAILURE_LOG_INTERVAL_MS = 10_000;

const notRecorded = new Counter({
  name: 'engage_recent_events_not_recorded_total',
  help: 'Event batches whose items the debugger did not record: too many Redis calls in flight, or a failed call.',
  labelNames: ['reason'],
  registers: [metricsRegistry],
});

interface WatchState {
  until: number;
  checkedAt: number;
}

export function createRecentEvents(options: {
  redis: Redis;
  keyPrefix: string;
  settings: RecentEventsSettings;
  log: Logger;
}): RecentEvents {
  const { redis, keyPrefix: prefix, settings, log } = options;
  const watched = new Map<string, WatchState>();
  let pending = 0;
  let lastWarning = 0;

  const warn = (err: unknown) => {
    if (Date.now() - lastWarning < FAILURE_LOG_INTERVAL_MS) return;
    lastWarning = Date.now();
    log.warn({ err: String(err) }, 'recent events: Redis call failed, items not recorded');
  };
  // Connection errors surface here (rate-limited) instead of as ioredis's unhandled-error noise.
  redis.on('error', warn);

  /** Runs `call` unless too many are in flight; never throws. */
  const inBackground = (call: () => Promise<void>, onFailure: () => void): boolean => {
    if (pending >= settings.maxPendingCalls) return false;
    pending++;
    call()
      .catch((err) => {
        onFailure();
        warn(err);
      })
      .finally(() => pending--);
    return true;
  };

  /** What this replica last learnt; a stale answer starts a look in the background. */
  const isWatched = (environmentId: string): boolean => {
    const now = Date.now();
    const state = watched.get(environmentId);
    if (!state || now - state.checkedAt >= WATCH_REFRESH_MS) {
      const next = { until: state?.until ?? 0, checkedAt: now };
      watched.set(environmentId, next);
      inBackground(
        async () => {
          const ms = await watchedForMs(redis, prefix, environmentId);
          next.until = ms > 0 ? Date.now() + ms : 0;
        },
        () => {},
      );
    }
    return (state?.until ?? 0) > now;
  };

  return {
    record(environmentId, receivedAt, items, results) {
      if (settings.maxItems === 0) return;
      const withAccepted = isWatched(environmentId);
      if (!withAccepted && results.every((r) => r.accepted)) return;
      const recorded = itemsToRecord(items, results, receivedAt, { withAccepted, max: settings.maxItems });
      const started = inBackground(
        () => appendRecentItems(redis, prefix, environmentId, recorded, settings.maxItems),
        () => notRecorded.inc({ reason: 'failed' }),
      );
      if (!started) notRecorded.inc({ reason: 'busy' });
    },

    async read(environmentId, query) {
      try {
        if (query.watch) {
          await markWatched(redis, prefix, environmentId, settings.watchTtlMs);
          watched.set(environmentId, { until: Date.now() + settings.watchTtlMs, checkedAt: Date.now() });
        }
        const [stored, watchedMs] = await Promise.all([
          settings.maxItems === 0 ? [] : readRecentItems(redis, prefix, environmentId, query.after),
          watchedForMs(redis, prefix, environmentId),
        ]);
        const items = stored
          .filter((item) => query.outcome === undefined || item.accepted === (query.outcome === 'accepted'))
          .filter((item) => query.playerId === undefined || item.playerId === query.playerId)
          .slice(0, query.limit);
        return {
          items,
          watchedUntil:
            watchedMs > 0 && settings.maxItems > 0 ? new Date(Date.now() + watchedMs).toISOString() : null,
          keeps: settings.maxItems,
        };
      } catch (err) {
        log.warn({ err: String(err) }, 'recent events: Redis could not be read');
        throw problem('recent_events.unavailable');
      }
    },

    pendingCalls: () => pending,
  };
}
