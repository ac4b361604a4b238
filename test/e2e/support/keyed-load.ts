import type { EnvironmentFileInput } from '@engage/contracts/environment-file.ts';
import type { Operation, RecordedClient } from './recorded-client.ts';

/**
 * A tenant's definitions and a seeded load of keyed operations over them, for fault tests: events
 * that move missions (some granting points) and a leaderboard, points adjustments and purchases of
 * an item with a stock, each operation with an idempotency key so that a retry is safe.
 */

export const PLAY = 'play';
/** Count and sum objectives whose targets are never reached: their progress is the exact tally. */
export const TALLY_MISSIONS = { count: 'tally', sum: 'total' } as const;
/** Missions completed at a count of `play` events, each granting its points once. */
export const REWARD_MISSIONS = [
  { key: 'first-steps', target: 3, points: 5 },
  { key: 'regular', target: 10, points: 20 },
  { key: 'devoted', target: 25, points: 100 },
] as const;
export const BOARD = 'score';
export const ITEM = { key: 'relic', price: 7 } as const;

export function loadDefinition(stock: number): EnvironmentFileInput {
  const countTo = (target: number) => [
    { key: 'n', event: PLAY, measure: { kind: 'count' as const }, target },
  ];
  return {
    discovery: false,
    events: [{ key: PLAY, active: true, properties: { value: { type: 'number', required: true } } }],
    missions: [
      { key: TALLY_MISSIONS.count, name: 'Tally', objectives: countTo(1e12) },
      {
        key: TALLY_MISSIONS.sum,
        name: 'Total',
        objectives: [{ key: 'v', event: PLAY, measure: { kind: 'sum', property: 'value' }, target: 1e12 }],
      },
      ...REWARD_MISSIONS.map((m) => ({
        key: m.key,
        name: m.key,
        objectives: countTo(m.target),
        rewards: [{ points: m.points }],
      })),
    ],
    leaderboards: [
      {
        key: BOARD,
        name: 'Score',
        scoreSource: { type: 'Event', event: PLAY, property: 'value' },
        aggregation: 'Sum',
      },
    ],
    marketplace: {
      items: [
        {
          key: ITEM.key,
          name: 'Relic',
          priceInPoints: ITEM.price,
          stock,
          contents: [{ catalogItemKey: 'relic', value: { type: 'number', value: 1 } }],
        },
      ],
      collections: [],
    },
  } as EnvironmentFileInput;
}

/** Shares of each kind of operation in the load (they need not add up to 1). */
export interface Mix {
  events: number;
  adjustment: number;
  purchase: number;
}

/** Generates the operations of a load from a seeded random source; keys are unique per run. */
export class KeyedLoad {
  readonly #players: readonly string[];
  readonly #random: () => number;
  readonly #mix: Mix;
  #next = 0;

  constructor(players: readonly string[], random: () => number, mix: Mix) {
    this.#players = players;
    this.#random = random;
    this.#mix = mix;
  }

  #player(): string {
    return this.#players[Math.floor(this.#random() * this.#players.length)]!;
  }

  #int(low: number, high: number): number {
    return low + Math.floor(this.#random() * (high - low + 1));
  }

  nextOperation(): Operation {
    const n = this.#next++;
    const { events, adjustment, purchase } = this.#mix;
    const pick = this.#random() * (events + adjustment + purchase);
    if (pick < events) {
      const items = Array.from({ length: this.#int(1, 4) }, (_, i) => ({
        eventKey: PLAY,
        playerId: this.#player(),
        properties: { value: this.#int(1, 9) },
        idempotencyKey: `e${n}-${i}`,
      }));
      return {
        kind: 'events',
        playerId: items[0]!.playerId,
        method: 'POST',
        path: '/v1/events',
        body: { events: items },
      };
    }
    const playerId = this.#player();
    if (pick < events + adjustment) {
      const amount = this.#random() < 0.6 ? this.#int(1, 50) : -this.#int(1, 40);
      return {
        kind: 'adjustment',
        playerId,
        method: 'POST',
        path: '/v1/points/adjustments',
        body: { playerId, amount, reason: 'fault test', idempotencyKey: `a${n}` },
      };
    }
    return {
      kind: 'purchase',
      playerId,
      method: 'POST',
      path: `/v1/marketplace-items/${ITEM.key}/purchases`,
      body: { playerId, idempotencyKey: `p${n}` },
    };
  }

  /** One client: operation after operation, each until definitive, until `stop()` says so. */
  async drive(client: RecordedClient, stop: () => boolean): Promise<void> {
    while (!stop()) await client.run(this.nextOperation());
  }
}

/**
 * Creates each player and enters them into every mission (reading the feed does), so that all
 * their events from now on count. One at a time: two first sightings of one player can collide.
 */
export async function enterPlayers(client: RecordedClient, players: readonly string[]): Promise<void> {
  for (const playerId of players) {
    const record = await client.run({
      kind: 'missions',
      playerId,
      method: 'POST',
      path: '/v1/missions',
      body: { playerId },
    });
    if (record.final.outcome !== 'ok')
      throw new Error(`could not enter ${playerId}: ${JSON.stringify(record.final)}`);
  }
}
