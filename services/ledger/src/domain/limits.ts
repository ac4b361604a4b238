/**
 * Largest balance kept (2^53 - 2): the largest long the journal topic's Avro encoder writes exactly,
 * backed by a CHECK on the balances table (migration 0002).
 */
export const MAX_BALANCE = 9_007_199_254_740_990;
