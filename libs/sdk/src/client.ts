import createClient, { type Client } from 'openapi-fetch';
import type { operations, paths } from './api.ts';
import { EventQueue, type EventQueueOptions } from './event-queue.ts';
import { type Attempt, type RetryOptions, withRetries } from './retries.ts';

type Body<O extends keyof operations> = operations[O] extends {
  requestBody: { content: { 'application/json': infer B } };
}
  ? B
  : never;
type Query<O extends keyof operations> = operations[O] extends { parameters: { query?: infer Q } }
  ? NonNullable<Q>
  : never;

export type EventItem = Body<'sendEvents'>['events'][number];
export type PointsAdjustment = Omit<Body<'adjustPoints'>, 'idempotencyKey'> & { idempotencyKey?: string };
export type Purchase = Omit<Body<'purchaseMarketplaceItem'>, 'idempotencyKey'> & { idempotencyKey?: string };

export interface EngageClientOptions {
  /** A project API key (`eng_sandbox_…` or `eng_live_…`). */
  apiKey: string;
  /** The gateway's address, e.g. `https://engage.example.com`. */
  baseUrl: string;
  retries?: RetryOptions;
  /** A fetch of your own (instrumented, proxied); the platform's by default. */
  fetch?: typeof fetch;
}

/**
 * A typed client of engage's /v1 API for a game's server. Every call follows the contract's retry
 * rules (`retries.ts`); a refusal is thrown as an `EngageProblem` carrying its `code`. Writes that
 * move points carry an idempotency key, made here when not given and the same on every retry.
 */
export class EngageClient {
  readonly #http: Client<paths>;
  readonly #retries: RetryOptions;

  constructor(options: EngageClientOptions) {
    this.#http = createClient<paths>({
      baseUrl: options.baseUrl.replace(/\/$/, ''),
      headers: { authorization: `Bearer ${options.apiKey}` },
      ...(options.fetch ? { fetch: options.fetch } : {}),
    });
    this.#retries = options.retries ?? {};
  }

  #call<T>(send: () => Promise<Attempt<T>>): Promise<T> {
    return withRetries(send, this.#retries);
  }

  readonly missions = {
    /** The player's missions (entering them in missions they may see). */
    list: (body: Body<'listMissions'>) => this.#call(() => this.#http.POST('/v1/missions', { body })),
    get: (missionKey: string, body: Body<'getMission'>) =>
      this.#call(() =>
        this.#http.POST('/v1/missions/{missionKey}', { params: { path: { missionKey } }, body }),
      ),
    accept: (missionKey: string, body: Body<'acceptMission'>) =>
      this.#call(() =>
        this.#http.POST('/v1/missions/{missionKey}/accept', { params: { path: { missionKey } }, body }),
      ),
    collection: (collectionKey: string, body: Body<'getMissionCollection'>) =>
      this.#call(() =>
        this.#http.POST('/v1/mission-collections/{collectionKey}', {
          params: { path: { collectionKey } },
          body,
        }),
      ),
  };

  readonly shop = {
    items: (query: Query<'listMarketplaceItems'>) =>
      this.#call(() => this.#http.GET('/v1/marketplace-items', { params: { query } })),
    item: (marketplaceItemKey: string, query: Query<'getMarketplaceItem'>) =>
      this.#call(() =>
        this.#http.GET('/v1/marketplace-items/{marketplaceItemKey}', {
          params: { path: { marketplaceItemKey }, query },
        }),
      ),
    collection: (collectionKey: string, query: Query<'getMarketplaceCollection'>) =>
      this.#call(() =>
        this.#http.GET('/v1/marketplace-collections/{collectionKey}', {
          params: { path: { collectionKey }, query },
        }),
      ),
    /** Buys an item; retried with one idempotency key, so it is charged once. */
    purchase: (marketplaceItemKey: string, purchase: Purchase) => {
      const body = { ...purchase, idempotencyKey: purchase.idempotencyKey ?? crypto.randomUUID() };
      return this.#call(() =>
        this.#http.POST('/v1/marketplace-items/{marketplaceItemKey}/purchases', {
          params: { path: { marketplaceItemKey } },
          body,
        }),
      );
    },
  };

  readonly points = {
    balance: (query: Query<'getPointsBalance'>) =>
      this.#call(() => this.#http.GET('/v1/points', { params: { query } })),
    /** Credits or debits points; retried with one idempotency key, so it applies once. */
    adjust: (adjustment: PointsAdjustment) => {
      const body = { ...adjustment, idempotencyKey: adjustment.idempotencyKey ?? crypto.randomUUID() };
      return this.#call(() => this.#http.POST('/v1/points/adjustments', { body }));
    },
  };

  readonly playerItems = {
    list: (query: Query<'listPlayerItems'>) =>
      this.#call(() => this.#http.GET('/v1/player-items', { params: { query } })),
  };

  readonly leaderboards = {
    get: (leaderboardKey: string, query: Query<'getLeaderboard'>) =>
      this.#call(() =>
        this.#http.GET('/v1/leaderboards/{leaderboardKey}', { params: { path: { leaderboardKey }, query } }),
      ),
  };

  readonly streaks = {
    list: (query: Query<'listStreaks'>) =>
      this.#call(() => this.#http.GET('/v1/streaks', { params: { query } })),
    get: (streakKey: string, query: Query<'getStreak'>) =>
      this.#call(() => this.#http.GET('/v1/streaks/{streakKey}', { params: { path: { streakKey }, query } })),
  };

  readonly players = {
    setAttributes: (body: Body<'setPlayerAttributes'>) =>
      this.#call(() => this.#http.POST('/v1/players/attributes', { body })),
  };

  readonly events = {
    /**
     * Sends one batch (up to 1,000 events) as it is. Items without an idempotency key get one, so a
     * retried batch is accepted once; per-item refusals are in the answer's `results`.
     */
    send: (events: EventItem[]) => {
      const body = {
        events: events.map((e) => ({ ...e, idempotencyKey: e.idempotencyKey ?? crypto.randomUUID() })),
      };
      return this.#call(() => this.#http.POST('/v1/events', { body }));
    },
    /** A queue that batches events and sends them on size and interval (`event-queue.ts`). */
    queue: (options: EventQueueOptions = {}) => new EventQueue((batch) => this.events.send(batch), options),
  };
}
