import { type EnvironmentKind, topics } from '@engage/contracts';
import type { EnvironmentDiff } from '@engage/contracts/environment-file.ts';
import { enqueueOutbox } from '@engage/kafka';
import { type Pool, withTransaction } from '@engage/postgres';
import { eventDefinitionsRecord } from '../domain/edge-state-records.ts';
import { definitionAppliedRecord } from '../domain/state-records.ts';
import { insertAuditEntry } from '../store/audit-log.ts';
import { nextDefinitionVersion } from '../store/control-plane.ts';
import { loadGatewaySections } from '../store/event-definitions.ts';
import type { WriteOrigin } from './audited.ts';
import type { StateOutbox } from './state-outbox.ts';

/**
 * Records an apply that changed an environment's definition, after every section's owner applied
 * its part: in one transaction, the environment's next definition version, the audit entry (the
 * definition history's) and the definitions.applied.v1 record. The file's sections span services,
 * so this follows the apply instead of sharing a transaction with it; the record is published
 * exactly when the apply is in the definition history.
 */
export async function recordDefinitionApply(
  pool: Pool,
  outbox: StateOutbox,
  origin: WriteOrigin,
  applied: { organizationId: string; environmentKind: EnvironmentKind; diff: EnvironmentDiff },
): Promise<void> {
  const { organizationId, environmentKind, diff } = applied;
  const { environmentId } = diff;
  await withTransaction(pool, async (client) => {
    const version = await nextDefinitionVersion(client, environmentId);
    // Read after the version's row lock: a record never carries definitions older than the one
    // before it, so the latest record of an environment is its definitions (the edge's view).
    const sections = await loadGatewaySections(client, environmentId);
    if (!sections) throw new Error('the environment of an apply disappeared before the apply was recorded');
    const applyId = await insertAuditEntry(client, {
      ...origin,
      organizationId,
      targets: { organizationId, environmentId },
      difference: diff,
    });
    await enqueueOutbox(client, topics.definitionsApplied, outbox.topicPrefix, [
      definitionAppliedRecord({
        applyId,
        organizationId,
        environmentId,
        environmentKind,
        version,
        actor: origin.actor,
        changes: diff.changes,
        appliedAt: new Date(),
        events: eventDefinitionsRecord(sections),
      }),
    ]);
  });
  outbox.kick();
}
