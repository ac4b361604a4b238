/** The admin token every test stack's gateway is started with. */
export const TEST_ADMIN_TOKEN = 'test-admin-token-0123456789abcdef';
