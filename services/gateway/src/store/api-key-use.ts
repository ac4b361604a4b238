import type { Pool } from '@engage/postgres';

/**
 * When a key was last used, on the control plane's key row: the one write the edge still makes in
 * the control plane's schema (its pool searches that schema after its own).
 */
export async function touchApiKey(pool: Pool, apiKeyId: string): Promise<void> {
  await pool.query('UPDATE api_keys SET last_used_at = now() WHERE api_key_id = $1', [apiKeyId]);
}
