/**
 * Service settings of a stack whose processes a fault test kills under keyed load: a killed
 * process's share of the work moves on within seconds, so the run stays short.
 */
export const FAULT_STACK_ENV: Record<string, string> = {
  // A killed consumer's partitions move to another member after 6 s (the broker's minimum).
  KAFKA_SESSION_TIMEOUT_MS: '6000',
  // A key left pending by a killed gateway is produced again by a retry after 2 s.
  IDEMPOTENCY_PENDING_TIMEOUT_MS: '2000',
  // A killed query process's unfinished mirror writes are repaired within half a second.
  MIRROR_SWEEP_INTERVAL_MS: '500',
};
