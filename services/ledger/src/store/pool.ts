import { createPool, type Pool } from '@engage/postgres';

/**
 * The ledger's connections. Generic plans: the write batch's statements are planned once per
 * connection, not at every batch (planning the large write statement costs Postgres about as much as
 * running it). No sequential scans: each of those plans is made against the tables as they are when
 * the connection first runs it, and on a new deployment they are empty and never analyzed, so
 * Postgres would scan balances and idempotency keys whole for every batch as they grow
 * (docs/ledger.md, "Plans that do not depend on statistics"). Pipelining: a write batch's read
 * goes out with its BEGIN and its write with its COMMIT (two round trips).
 */
export function createLedgerPool(options: {
  url: string;
  max: number;
  /** `ledger` unless a test migrated a schema of its own. */
  schema?: string;
  log?: { warn(details: object, message: string): void };
}): Pool {
  return createPool({
    ...options,
    schema: options.schema ?? 'ledger',
    planCacheMode: 'force_generic_plan',
    seqScans: false,
    pipeline: true,
  });
}
