import { type Pool, type PoolClient, withTransaction } from '@engage/postgres';
import { type Actor, type AuditRecord, insertAuditEntry } from '../store/audit-log.ts';

/** Who made a write through the admin API, and by which route. */
export interface WriteOrigin {
  actor: Actor;
  method: string;
  route: string;
}

export type AuditedChange = Omit<AuditRecord, 'actor' | 'method' | 'route'>;

/**
 * Runs a write and records it in the audit log in the same transaction: both happen or neither.
 * `work` answers its result and the change to record (undefined: nothing was written).
 */
export function audited<T>(
  pool: Pool,
  origin: WriteOrigin,
  work: (client: PoolClient) => Promise<{ result: T; change: AuditedChange | undefined }>,
): Promise<T> {
  return withTransaction(pool, async (client) => {
    const { result, change } = await work(client);
    if (change) await recordChange(client, origin, change);
    return result;
  });
}

/** Records a change already made (a write that spans services and has no single transaction). */
export function recordChange(db: Pool | PoolClient, origin: WriteOrigin, change: AuditedChange) {
  return insertAuditEntry(db, { ...origin, ...change });
}
