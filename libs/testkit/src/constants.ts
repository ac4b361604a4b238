/** The admin token every test stack's control plane is started with. */
export const TEST_ADMIN_TOKEN = 'test-admin-token-0123456789abcdef';

/** The secret every test stack's services sign their internal calls with. */
export const TEST_INTERNAL_AUTH_SECRET = 'test-internal-auth-secret-0123456789abcdef';
