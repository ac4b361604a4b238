/** The admin token every test stack's gateway is started with. */
export const TEST_ADMIN_TOKEN = 'test-admin-token-0123456789abcdef';

/** The secret the gateway of every test stack signs its calls to rules, ledger and query with. */
export const TEST_INTERNAL_AUTH_SECRET = 'test-internal-auth-secret-0123456789abcdef';
