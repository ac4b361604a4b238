import type { EnvironmentContext } from '@engage/contracts';
import { createPool, type Pool } from '@engage/postgres';
import { stackConfig } from '@engage/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { currentMonth } from '../src/application/current-month.ts';
import { createPlayerDirectory, type PlayerDirectory } from '../src/application/player-directory.ts';

/**
 * A directory on a pool whose reads of players can be held after Postgres answered them, so that
 * a test decides what happens while a read is under way.
 */
let pool: Pool;
let directory: PlayerDirectory;
const reads: string[][] = [];
let held: Promise<void> | undefined;
let readArrived: (() => void) | undefined;

beforeAll(async () => {
  pool = createPool({ url: stackConfig().databaseUrl, schema: 'gateway', max: 4 });
  const query = pool.query.bind(pool) as (...args: unknown[]) => Promise<unknown>;
  const watched = new Proxy(pool, {
    get(target, property) {
      if (property !== 'query') return Reflect.get(target, property, target);
      return async (...args: unknown[]) => {
        const config = args[0] as { name?: string; values?: unknown[] };
        if (config?.name !== 'gateway-read-players') return query(...args);
        reads.push(config.values![1] as string[]);
        const answer = await query(...args);
        readArrived?.();
        await held;
        return answer;
      };
    },
  });
  directory = createPlayerDirectory({
    pool: watched,
    maxEntries: 10_000,
    schema: 'gateway',
    listenerName: 'player-reads-test',
    liveCap: () => null,
  });
  await directory.whenListening();
});
afterAll(async () => {
  await directory?.close();
  await pool?.end();
});

async function storedPlayers(environmentId: string, ids: string[]) {
  await pool.query(
    `INSERT INTO players (environment_id, external_id, attributes)
     SELECT $1, id, jsonb_build_object('tier', id) FROM unnest($2::text[]) AS id`,
    [environmentId, ids],
  );
  await pool.query(
    `INSERT INTO monthly_active_players (environment_id, month, external_id)
     SELECT $1, $3, id FROM unnest($2::text[]) AS id`,
    [environmentId, ids, currentMonth()],
  );
}

const environmentOf = (environmentId: string): EnvironmentContext => ({
  organizationId: crypto.randomUUID(),
  environmentId,
  environmentKind: 'Live',
});

/** Holds every read of players once Postgres answered it, until the returned function is called. */
function holdReads(): { arrived: Promise<void>; release: () => void } {
  let release!: () => void;
  held = new Promise((resolve) => {
    release = () => {
      held = undefined;
      resolve();
    };
  });
  const arrived = new Promise<void>((resolve) => {
    readArrived = resolve;
  });
  return { arrived, release };
}

describe('players this replica does not know', () => {
  it('are read together: the ones asked for during a read come in the next one', async () => {
    const environments = [crypto.randomUUID(), crypto.randomUUID()];
    const ids = Array.from({ length: 60 }, (_, i) => `p-${i}`);
    for (const environmentId of environments) await storedPlayers(environmentId, ids);
    reads.length = 0;
    const hold = holdReads();
    const first = directory.resolve(environmentOf(environments[0]!), ids[0]!);
    await hold.arrived;
    // Asked for while the first read is held: one read for both environments, after it.
    const rest = environments.flatMap((environmentId, e) =>
      ids.slice(e === 0 ? 1 : 0).map((id) => directory.resolve(environmentOf(environmentId), id)),
    );
    hold.release();
    const players = await Promise.all([first, ...rest]);
    expect(players).toEqual(
      environments.flatMap(() =>
        ids.map((id) => ({ id, timeZone: null, attributes: { tier: id }, isNew: false })),
      ),
    );
    // The first read (1 player), then one statement per environment.
    expect(reads.map((r) => r.length).sort((a, b) => a - b)).toEqual([1, 59, 60]);
    // Known from now on: no read at all.
    await directory.resolve(environmentOf(environments[1]!), ids[5]!);
    expect(reads).toHaveLength(3);
  });

  it('are read by several reads at once: one held read does not hold the others', async () => {
    const environmentId = crypto.randomUUID();
    const ids = ['slow-0', 'slow-1', 'slow-2'];
    await storedPlayers(environmentId, ids);
    reads.length = 0;
    const hold = holdReads();
    const resolving: Promise<unknown>[] = [];
    for (const id of ids) {
      resolving.push(directory.resolve(environmentOf(environmentId), id));
      await new Promise((resolve) => setImmediate(resolve));
    }
    // Every read was sent while the first is still held after Postgres answered it.
    await expect.poll(() => reads.length).toBe(3);
    hold.release();
    expect((await Promise.all(resolving)).map((p) => (p as { id: string }).id)).toEqual(ids);
  });

  it('does not keep a player whose change was announced while it was being read', async () => {
    const environmentId = crypto.randomUUID();
    const [changed, witness] = ['changed', 'witness'];
    await storedPlayers(environmentId, [changed, witness]);
    const environment = environmentOf(environmentId);
    await directory.resolve(environment, witness);
    expect(directory.knownOf(environmentId)(witness)).toBeDefined();
    const hold = holdReads();
    const reading = directory.resolve(environment, changed);
    await hold.arrived;
    // Postgres has answered the read; the changes are committed and announced before it returns.
    for (const id of [changed, witness]) {
      await pool.query(
        `UPDATE players SET attributes = '{"tier":"gold"}' WHERE environment_id = $1 AND external_id = $2`,
        [environmentId, id],
      );
    }
    // Notifications arrive in commit order: once the witness is dropped, the change to `changed` is known.
    await expect.poll(() => directory.knownOf(environmentId)(witness), { timeout: 20_000 }).toBeUndefined();
    hold.release();
    expect(await reading).toMatchObject({ attributes: { tier: changed } });
    expect(directory.knownOf(environmentId)(changed)).toBeUndefined();
    expect(await directory.resolve(environment, changed)).toMatchObject({ attributes: { tier: 'gold' } });
  });
});
