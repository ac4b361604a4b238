import { createPool, withTransaction } from '@engage/postgres';
import { randomEnvironment, stackConfig } from '@engage/testkit';
import { afterAll, describe, expect, it } from 'vitest';
import type { PlayerMissions } from '../src/domain/missions.ts';
import { findActivity } from '../src/store/activity.ts';
import {
  createPlayerRows,
  findProgress,
  lockPlayers,
  progressWrite,
  readPlayers,
  writePlayers,
} from '../src/store/progress.ts';

// A pipelining pool, as the service's: the lock and the read of changed players go out together.
const pool = createPool({ url: stackConfig().databaseUrl, schema: 'rules', max: 2, pipeline: true });
afterAll(() => pool.end());

/** Player ids an array parameter must carry unchanged. */
const ODD_IDS = ['player-1', 'a"b', 'back\\slash', '\\"', '{x,y}', ' spaced ', 'NULL', "it's", 'émoji 🎮'];

const missions = (value: number): PlayerMissions => ({
  levels: {
    occurrence: 1,
    enteredAt: '2026-01-02T03:04:05.678Z',
    acceptedAt: null,
    countingSince: '2026-01-02T03:04:05.678Z',
    completedAt: null,
    completionShown: false,
    objectives: { n: { value }, seen: { value: 2, seen: ['a"b', '\\'] } },
  },
});

describe('the consumer statements over many players (an array parameter per column)', () => {
  it('create, lock, write and read back players whatever their ids hold', async () => {
    const { environmentId } = randomEnvironment();
    const refs = ODD_IDS.map((playerId) => ({ environmentId, playerId }));
    const revisions = await withTransaction(pool, async (client) => {
      await createPlayerRows(client, refs);
      const locked = await lockPlayers(
        client,
        refs.map((ref) => ({ ...ref, knownRevision: null })),
      );
      expect(locked.map((row) => row.player_id).sort()).toEqual([...ODD_IDS].sort());
      expect(locked.every((row) => row.stale)).toBe(true);
      const writes = refs.map((ref, i) => ({
        player: ref,
        activity: {
          ...ref,
          eventsApplied: i + 1,
          lastEventId: crypto.randomUUID(),
          lastOffset: String(2 ** 53 - 1 - i),
          lastOccurredAt: '2026-01-02T03:04:05.678Z',
          appliedEventsDigest: `digest-${i}`,
        },
        progress: progressWrite(undefined, { ...ref, missions: missions(i), streaks: {} }),
        revision: crypto.randomUUID(),
      }));
      expect(await writePlayers(client, writes)).toHaveLength(ODD_IDS.length);
      return new Map(writes.map((w) => [w.player.playerId, w.revision]));
    });

    for (const [i, ref] of refs.entries()) {
      expect(await findProgress(pool, ref)).toEqual({ ...ref, missions: missions(i), streaks: {} });
      expect(await findActivity(pool, ref)).toMatchObject({
        ...ref,
        eventsApplied: i + 1,
        lastOffset: String(2 ** 53 - 1 - i),
        appliedEventsDigest: `digest-${i}`,
      });
    }

    // Read again, only the players whose revision the caller does not hold carry their progress.
    const known = (ref: { environmentId: string; playerId: string }, i: number) => ({
      ...ref,
      knownRevision: i % 2 === 0 ? revisions.get(ref.playerId)! : null,
    });
    const odd = ODD_IDS.filter((_, i) => i % 2 === 1).sort();
    await withTransaction(pool, async (client) => {
      for (const rows of [
        await readPlayers(client, refs.map(known)),
        await lockPlayers(client, refs.map(known)),
      ]) {
        expect(rows).toHaveLength(ODD_IDS.length);
        expect(
          rows
            .filter((row) => row.stale)
            .map((row) => row.player_id)
            .sort(),
        ).toEqual(odd);
        expect(rows.filter((row) => !row.stale).every((row) => row.missions === null)).toBe(true);
      }
    });
  });

  it('skip a conditional write when the row moved since it was read', async () => {
    const { environmentId } = randomEnvironment();
    const refs = ['kept', 'moved'].map((playerId) => ({ environmentId, playerId }));
    await withTransaction(pool, (client) => createPlayerRows(client, refs));
    const read = await withTransaction(pool, (client) =>
      readPlayers(
        client,
        refs.map((ref) => ({ ...ref, knownRevision: null })),
      ),
    );
    // Another writer moves one player's progress (a new revision) after the read.
    await withTransaction(pool, (client) =>
      writePlayers(client, [
        {
          player: refs[1]!,
          activity: undefined,
          progress: progressWrite(undefined, { ...refs[1]!, missions: missions(7), streaks: {} }),
          revision: crypto.randomUUID(),
        },
      ]),
    );
    const written = await withTransaction(pool, (client) =>
      writePlayers(
        client,
        read.map((row) => ({
          player: { environmentId, playerId: row.player_id },
          activity: undefined,
          progress: progressWrite(undefined, {
            environmentId,
            playerId: row.player_id,
            missions: missions(1),
            streaks: {},
          }),
          revision: crypto.randomUUID(),
          expected: { revision: row.revision, eventsApplied: row.events_applied },
        })),
      ),
    );
    expect(written.map((row) => row.player_id)).toEqual(['kept']);
    expect((await findProgress(pool, refs[0]!)).missions).toEqual(missions(1));
    expect((await findProgress(pool, refs[1]!)).missions).toEqual(missions(7));
  });

  it('leave players without a row out of the read and the lock, for the caller to create', async () => {
    const { environmentId } = randomEnvironment();
    await withTransaction(pool, async (client) => {
      const player = { environmentId, playerId: 'new', knownRevision: null };
      expect(await readPlayers(client, [player])).toEqual([]);
      expect(await lockPlayers(client, [player])).toEqual([]);
    });
  });
});
