import type { Pool } from '@engage/postgres';
import DataLoader from 'dataloader';
import { readPlayers, type StoredPlayer } from '../store/players.ts';

/** A player this replica does not know, to be read for `month`. */
export interface PlayerRead {
  environmentId: string;
  externalId: string;
  month: string;
}

export type ReadPlayer = (read: PlayerRead) => Promise<StoredPlayer | undefined>;

/** Players one read takes at most; more wait for the next read. */
const MOST_PER_READ = 1_000;

/**
 * Reads of unknown players, one read in flight at a time: the players asked for while a read runs
 * are read together by the next one, one statement per environment (and month). Nothing is
 * remembered here; the directory decides what to keep.
 */
export function createPlayerReads(
  pool: Pool,
  options: { onRead?: (players: number) => void } = {},
): ReadPlayer {
  // A read running or about to; batches formed meanwhile wait here, each for the one before it.
  let busy = false;
  const queued: (() => void)[] = [];
  const start = (dispatch: () => void) => {
    busy = true;
    process.nextTick(dispatch);
  };

  const loader = new DataLoader<PlayerRead, StoredPlayer | undefined>(
    async (reads) => {
      options.onRead?.(reads.length);
      try {
        return await readGrouped(pool, reads);
      } finally {
        const following = queued.shift();
        if (following) start(following);
        else busy = false;
      }
    },
    {
      cache: false,
      maxBatchSize: MOST_PER_READ,
      batchScheduleFn: (dispatch) => (busy ? queued.push(dispatch) : start(dispatch)),
    },
  );
  return (read) => loader.load(read);
}

async function readGrouped(pool: Pool, reads: readonly PlayerRead[]): Promise<(StoredPlayer | undefined)[]> {
  const groups = new Map<string, PlayerRead[]>();
  for (const read of reads) {
    const group = `${read.environmentId}\u0000${read.month}`;
    const members = groups.get(group) ?? [];
    members.push(read);
    groups.set(group, members);
  }
  const found = await Promise.all(
    [...groups.values()].map(async (group) => {
      const { environmentId, month } = group[0]!;
      const ids = [...new Set(group.map((read) => read.externalId))];
      return { environmentId, month, players: await readPlayers(pool, environmentId, ids, month) };
    }),
  );
  const byGroup = new Map(found.map((f) => [`${f.environmentId}\u0000${f.month}`, f.players]));
  return reads.map((read) => byGroup.get(`${read.environmentId}\u0000${read.month}`)?.get(read.externalId));
}
