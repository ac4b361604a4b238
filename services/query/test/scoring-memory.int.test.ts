import type { AcceptedEvent, EnvironmentContext } from '@engage/contracts';
import {
  type LeaderboardDefinition,
  LeaderboardDefinitionSchema,
} from '@engage/contracts/environment/leaderboards.ts';
import { type PoolClient, type QueryConfig, withTransaction } from '@engage/postgres';
import { acceptedEvent, numberProperty, randomEnvironment, schemaPool } from '@engage/testkit';
import { afterAll, describe, expect, it } from 'vitest';
import { applyAcceptedEvents } from '../src/application/scoring/apply-events.ts';
import { ScoringMemory } from '../src/application/scoring/scoring-memory.ts';
import { replaceDefinitions } from '../src/store/definitions.ts';
import { consumedRecords } from './support.ts';

// The consumer remembers definitions and periods between chunks; every chunk scored from memory
// checks them in its period-locking statement, so what changed in Postgres is seen by the next chunk.
const pool = schemaPool('query');
afterAll(() => pool.end());

const board = (key: string, extra: Record<string, unknown> = {}): LeaderboardDefinition =>
  LeaderboardDefinitionSchema.parse({
    key,
    name: key,
    scoreSource: { type: 'Event', event: 'scored', property: 'points' },
    aggregation: 'Sum',
    ...extra,
  });

async function environmentWith(boards: LeaderboardDefinition[]): Promise<EnvironmentContext> {
  const env = randomEnvironment();
  await define(env, boards);
  return env;
}

const define = (env: EnvironmentContext, boards: LeaderboardDefinition[]) =>
  withTransaction(pool, (client) => replaceDefinitions(client, env.environmentId, boards));

const scored = (env: EnvironmentContext, playerId: string, points: number) =>
  acceptedEvent(env, playerId, {
    eventKey: 'scored',
    properties: { points: numberProperty(String(points)) },
  });

/** Applies events in one committed transaction, as the consumer does; returns the statements it ran. */
async function commit(events: AcceptedEvent[], memory: ScoringMemory): Promise<string[]> {
  const records = consumedRecords(events);
  const statements: string[] = [];
  await withTransaction(pool, (client) => {
    const counted = new Proxy(client, {
      get(target, property) {
        if (property === 'query') {
          return (statement: string | QueryConfig, values?: unknown[]) => {
            statements.push(typeof statement === 'string' ? statement : statement.text);
            return target.query(statement, values);
          };
        }
        const value = Reflect.get(target, property);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    }) as PoolClient;
    return applyAcceptedEvents({ client: counted, records, topic: 't', partitions: [0] }, memory);
  });
  return statements;
}

async function scores(environmentId: string): Promise<Record<string, number>> {
  const { rows } = await pool.query<{
    board_key: string;
    period_start: Date;
    player_id: string;
    score: string;
  }>('SELECT board_key, period_start, player_id, score FROM board_scores WHERE environment_id = $1', [
    environmentId,
  ]);
  return Object.fromEntries(
    rows.map((r) => [
      `${r.board_key}@${r.period_start.getTime() === 0 ? 0 : 'later'}:${r.player_id}`,
      Number(r.score),
    ]),
  );
}

describe('scoring from memory', () => {
  it('reads definitions and periods once: a later chunk on the same boards and periods only locks them', async () => {
    const env = await environmentWith([board('points')]);
    const memory = new ScoringMemory();
    const first = await commit([scored(env, 'ann', 1)], memory);
    const second = await commit([scored(env, 'ann', 2), scored(env, 'bob', 3)], memory);
    const readsDefinitions = (s: string) => s.includes('definition FROM leaderboard_definitions');
    const createsPeriods = (s: string) => s.includes('INSERT INTO board_periods');
    expect(first.some(readsDefinitions)).toBe(true);
    expect(first.some(createsPeriods)).toBe(true);
    expect(second.some(readsDefinitions)).toBe(false);
    expect(second.some(createsPeriods)).toBe(false);
    expect(second.length).toBe(first.length - 3);
    expect(await scores(env.environmentId)).toEqual({ 'points@0:ann': 3, 'points@0:bob': 3 });
  });

  it('sees an apply between two chunks: a board added, one switched off, one removed', async () => {
    const env = await environmentWith([board('points'), board('gone')]);
    const memory = new ScoringMemory();
    await commit([scored(env, 'ann', 5)], memory);
    await define(env, [board('points', { active: false }), board('added')]);
    await commit([scored(env, 'ann', 2), scored(env, 'bob', 7)], memory);
    expect(await scores(env.environmentId)).toEqual({
      'points@0:ann': 5,
      'gone@0:ann': 5,
      'added@0:ann': 2,
      'added@0:bob': 7,
    });
  });

  it('sees a period cut short by a settle between two chunks: the next chunk scores in the period after the cut', async () => {
    const env = await environmentWith([board('points')]);
    const memory = new ScoringMemory();
    await commit([scored(env, 'ann', 5)], memory);
    // What a sandbox settle does to the period in progress: cut at now, then settled.
    await pool.query(
      `UPDATE board_periods SET period_end = now() - interval '1 second', state = 'settled', settled_at = now()
       WHERE environment_id = $1`,
      [env.environmentId],
    );
    await commit([scored(env, 'ann', 2)], memory);
    expect(await scores(env.environmentId)).toEqual({ 'points@0:ann': 5, 'points@later:ann': 2 });
  });
});
