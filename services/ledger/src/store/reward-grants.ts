import type { RewardGrant } from '@engage/contracts';
import type { PoolClient } from '@engage/postgres';

export type GrantOutcome = 'credited' | 'nothing_to_credit' | 'balance_limit_reached';

/** Whether the grant was applied before (its dedupe row exists; visible within this transaction too). */
export async function grantSeen(client: PoolClient, grant: RewardGrant): Promise<boolean> {
  const { rowCount } = await client.query(
    'SELECT 1 FROM reward_grants WHERE environment_id = $1 AND grant_id = $2',
    [grant.environmentId, grant.grantId],
  );
  return rowCount === 1;
}

export async function recordGrant(
  client: PoolClient,
  grant: RewardGrant,
  points: number,
  outcome: GrantOutcome,
  entryId: string | null,
): Promise<void> {
  await client.query(
    `INSERT INTO reward_grants (environment_id, grant_id, player_id, source, source_key, occurrence, points,
                                outcome, entry_id)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
    [
      grant.environmentId,
      grant.grantId,
      grant.playerId,
      grant.source,
      grant.sourceKey,
      grant.occurrenceNumber,
      points,
      outcome,
      entryId,
    ],
  );
}
