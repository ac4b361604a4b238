import type { EnvironmentKind, ProblemCode } from '@engage/contracts';

/**
 * The usage limits of the contract. "The 100th player is refused" means at most 99 players a month
 * are admitted; "the 10,000th event is refused" means at most 9,999 a day. A Live organization's cap
 * is the number of players it may have, so the cap itself is admitted and the one after refused.
 */
export const SANDBOX_MONTHLY_ACTIVE_PLAYERS_LIMIT = 100;
export const SANDBOX_DAILY_EVENTS_LIMIT = 10_000;
export const SANDBOX_MONTHLY_ACTIVE_PLAYERS_ADMITTED = SANDBOX_MONTHLY_ACTIVE_PLAYERS_LIMIT - 1;
export const SANDBOX_DAILY_EVENTS_ADMITTED = SANDBOX_DAILY_EVENTS_LIMIT - 1;

export const QUOTA_CODES = {
  sandboxPlayers: 'sandbox.monthly_active_players_exceeded',
  sandboxEvents: 'sandbox.daily_event_limit_exceeded',
  liveCap: 'monthly_mau_limit_exceeded',
} as const satisfies Record<string, ProblemCode>;
export type QuotaCode = (typeof QUOTA_CODES)[keyof typeof QUOTA_CODES];

export interface PlayerQuota {
  /** Whose counter: the environment (Sandbox) or the organization (Live cap). */
  scopeId: string;
  /** Players admitted per month; null: no limit (the month is still counted). */
  admitted: number | null;
  code: QuotaCode;
}

export function playerQuota(
  kind: EnvironmentKind,
  ids: { organizationId: string; environmentId: string },
  liveCap: number | null,
): PlayerQuota {
  return kind === 'Sandbox'
    ? {
        scopeId: ids.environmentId,
        admitted: SANDBOX_MONTHLY_ACTIVE_PLAYERS_ADMITTED,
        code: QUOTA_CODES.sandboxPlayers,
      }
    : { scopeId: ids.organizationId, admitted: liveCap, code: QUOTA_CODES.liveCap };
}

/** How many more fit under `admitted` once `used` are taken (null: all of them). */
export function roomLeft(admitted: number | null, used: number, wanted: number): number {
  if (admitted === null) return wanted;
  return Math.max(0, Math.min(wanted, admitted - used));
}

/** First day of the UTC month, `YYYY-MM-01`. */
export const monthOf = (at: Date) => `${at.toISOString().slice(0, 7)}-01`;
/** The UTC day, `YYYY-MM-DD`. */
export const dayOf = (at: Date) => at.toISOString().slice(0, 10);
