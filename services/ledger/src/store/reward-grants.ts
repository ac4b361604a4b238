import type { RewardGrant } from '@engage/contracts';
import { execute, type PoolClient } from '@engage/postgres';
import { ledgerSql } from './tables.ts';

export type GrantOutcome = 'credited' | 'nothing_to_credit' | 'balance_limit_reached';

/** Whether the grant was applied before (its dedupe row exists; visible within this transaction too). */
export async function grantSeen(client: PoolClient, grant: RewardGrant): Promise<boolean> {
  const rows = await execute(
    client,
    ledgerSql
      .selectFrom('reward_grants')
      .select('grant_id')
      .where('environment_id', '=', grant.environmentId)
      .where('grant_id', '=', grant.grantId),
  );
  return rows.length === 1;
}

export async function recordGrant(
  client: PoolClient,
  grant: RewardGrant,
  points: number,
  outcome: GrantOutcome,
  entryId: string | null,
): Promise<void> {
  await execute(
    client,
    ledgerSql.insertInto('reward_grants').values({
      environment_id: grant.environmentId,
      grant_id: grant.grantId,
      player_id: grant.playerId,
      source: grant.source,
      source_key: grant.sourceKey,
      occurrence: grant.occurrenceNumber,
      points,
      outcome,
      entry_id: entryId,
    }),
  );
}
