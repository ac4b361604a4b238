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
  writePlayers,
} from '../src/store/progress.ts';

// A pipelining pool, as the service's: the lock and the read of changed players go out together.
const pool = createPool({ url: stackConfig().databaseUrl, schema: 'rules', max: 2, pipeline: true });
afterAll(() => pool.end());

/** Player ids a JSON parameter must carry unchanged. */
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

describe('the consumer statements over many players (one JSON parameter each)', () => {
  it('create, lock, write and read back players whatever their ids hold', async () => {
    const { environmentId } = randomEnvironment();
    const refs = ODD_IDS.map((playerId) => ({ environmentId, playerId }));
    const revisions = await withTransaction(pool, async (client) => {
      await createPlayerRows(client, refs);
      const { locked, read } = await lockPlayers(
        client,
        refs.map((ref) => ({ ...ref, knownRevision: null })),
      );
      expect(locked.map((row) => row.player_id).sort()).toEqual([...ODD_IDS].sort());
      expect(read).toHaveLength(ODD_IDS.length);
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
      await writePlayers(client, writes);
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

    // Locked again, only the players whose revision the caller does not hold are read.
    await withTransaction(pool, async (client) => {
      const { locked, read } = await lockPlayers(
        client,
        refs.map((ref, i) => ({ ...ref, knownRevision: i % 2 === 0 ? revisions.get(ref.playerId)! : null })),
      );
      expect(locked).toHaveLength(ODD_IDS.length);
      expect(read.map((row) => row.player_id).sort()).toEqual(ODD_IDS.filter((_, i) => i % 2 === 1).sort());
    });
  });

  it('leave players without a row out of the lock, for the caller to create', async () => {
    const { environmentId } = randomEnvironment();
    await withTransaction(pool, async (client) => {
      const { locked, read } = await lockPlayers(client, [
        { environmentId, playerId: 'new', knownRevision: null },
      ]);
      expect(locked).toEqual([]);
      expect(read).toEqual([]);
    });
  });
});
