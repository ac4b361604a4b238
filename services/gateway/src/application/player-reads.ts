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
  const groups = new Map<string, { environmentId: string; month: string; ids: Set<string> }>();
  const groupOf = (read: PlayerRead) => `${read.environmentId}\u0000${read.month}`;
  for (const read of reads) {
    const group = groups.get(groupOf(read)) ?? {
      environmentId: read.environmentId,
      month: read.month,
      ids: new Set(),
    };
    group.ids.add(read.externalId);
    groups.set(groupOf(read), group);
  }
  const found = new Map(
    await Promise.all(
      [...groups].map(
        async ([key, { environmentId, month, ids }]) =>
          [key, await readPlayers(pool, environmentId, [...ids], month)] as const,
      ),
    ),
  );
  return reads.map((read) => found.get(groupOf(read))?.get(read.externalId));
}
