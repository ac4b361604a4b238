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
 * Reads in flight at once: several, so that one slow statement never caps the replica, and few
 * against the pool, so that requests' own statements still find connections.
 */
const MOST_READS_IN_FLIGHT = 4;

/**
 * Reads of unknown players, at most `MOST_READS_IN_FLIGHT` at a time: the players asked for while
 * every slot is busy are read together by the next read to start, one statement per environment
 * (and month). Nothing is remembered here; the directory decides what to keep.
 */
export function createPlayerReads(
  pool: Pool,
  options: { onRead?: (players: number) => void } = {},
): ReadPlayer {
  let inFlight = 0;
  // Batches formed while every slot is busy, each waiting for a slot.
  const queued: (() => void)[] = [];
  const start = (dispatch: () => void) => {
    inFlight++;
    process.nextTick(dispatch);
  };

  const loader = new DataLoader<PlayerRead, StoredPlayer | undefined>(
    async (reads) => {
      options.onRead?.(reads.length);
      try {
        return await readGrouped(pool, reads);
      } finally {
        inFlight--;
        const following = queued.shift();
        if (following) start(following);
      }
    },
    {
      cache: false,
      maxBatchSize: MOST_PER_READ,
      batchScheduleFn: (dispatch) =>
        inFlight < MOST_READS_IN_FLIGHT ? start(dispatch) : queued.push(dispatch),
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
