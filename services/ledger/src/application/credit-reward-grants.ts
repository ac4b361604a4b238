import { randomUUID } from 'node:crypto';
import { type RewardGrant, topics } from '@engage/contracts';
import { type ConsumedRecord, enqueueOutbox, UnapplicableRecordError } from '@engage/kafka';
import type { Logger } from '@engage/kit';
import type { PoolClient } from '@engage/postgres';
import { journalRecord } from '../domain/journal-record.ts';
import { grantDefect, grantItems, grantPoints, grantReason } from '../domain/reward-grant.ts';
import { applyDelta } from '../store/balances.ts';
import { appendJournalEntry } from '../store/journal.ts';
import { recordPlayerItems } from '../store/player-items.ts';
import { type GrantOutcome, grantSeen, recordGrant } from '../store/reward-grants.ts';

/**
 * Credits one partition batch of reward grants inside the consumer's transaction (which also stores
 * the next offset): each grantId once, whatever the redelivery. Catalog items go to player_items. A
 * malformed grant throws UnapplicableRecordError; the consumer then keeps it in dead_letters (as it
 * does a grant the database refuses for its data) and the partition goes on.
 */
export async function applyRewardGrants(
  client: PoolClient,
  records: ConsumedRecord<RewardGrant>[],
  topicPrefix: string,
  log: Logger,
): Promise<void> {
  for (const record of records) {
    const defect = grantDefect(record.value);
    if (defect) throw new UnapplicableRecordError(defect);
    await applyRewardGrant(client, record.value, topicPrefix, log);
  }
}

async function applyRewardGrant(
  client: PoolClient,
  grant: RewardGrant,
  topicPrefix: string,
  log: Logger,
): Promise<void> {
  if (await grantSeen(client, grant)) return;
  const player = { environmentId: grant.environmentId, playerId: grant.playerId };
  const points = grantPoints(grant);
  let outcome: GrantOutcome = 'nothing_to_credit';
  let entryId: string | null = null;
  if (points > 0) {
    const credited = await applyDelta(client, player, points);
    if ('refused' in credited) {
      // Past the largest balance: recorded as refused (never retried into a loop), and logged.
      outcome = 'balance_limit_reached';
      log.warn({ grantId: grant.grantId, points }, 'reward not credited: the balance is at its limit');
    } else {
      const entry = await appendJournalEntry(client, {
        entryId: randomUUID(),
        organizationId: grant.organizationId,
        ...player,
        kind: 'reward',
        amount: points,
        balanceAfter: credited.balance,
        reason: grantReason(grant),
        idempotencyKey: null,
        sourceRef: grant.grantId,
      });
      await enqueueOutbox(client, topics.pointsJournal, topicPrefix, [journalRecord(entry)]);
      outcome = 'credited';
      entryId = entry.entryId;
    }
  }
  await recordGrant(client, grant, points, outcome, entryId);
  await recordPlayerItems(client, {
    ...player,
    source: 'reward',
    sourceRef: grant.grantId,
    entryId,
    items: grantItems(grant),
  });
}
