import type { LeaderboardDefinition } from '@engage/contracts/environment/leaderboards.ts';
import type { SectionItemChange } from '@engage/kit';
import { type Pool, withTransaction } from '@engage/postgres';
import { diffBoards } from '../domain/board-changes.ts';
import {
  type Definitions,
  loadDefinitions,
  lockDefinitions,
  replaceDefinitions,
} from '../store/definitions.ts';

/**
 * Applies the `leaderboards` section of an environment file (or, with `dryRun`, only says what it
 * would change): one apply per environment at a time, and this replica's cache forgets the old ones.
 */
export async function applyLeaderboards(
  deps: { pool: Pool; definitions: Definitions },
  environmentId: string,
  boards: readonly LeaderboardDefinition[],
  dryRun: boolean,
): Promise<SectionItemChange[]> {
  const changes = await withTransaction(deps.pool, async (client) => {
    await lockDefinitions(client, environmentId);
    const current = (await loadDefinitions(client, [environmentId])).get(environmentId) ?? [];
    const diff = diffBoards(current, boards);
    if (!dryRun) await replaceDefinitions(client, environmentId, boards);
    return diff;
  });
  deps.definitions.forget(environmentId);
  return changes;
}
