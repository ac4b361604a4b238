/** The Sandbox usage limits of the contract, as the console's usage overview shows them. */
export const SANDBOX_MONTHLY_ACTIVE_PLAYERS_LIMIT = 100;
export const SANDBOX_DAILY_EVENTS_LIMIT = 10_000;
