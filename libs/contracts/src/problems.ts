import { VALIDATION_DETAIL } from './http/problem.ts';

/**
 * The catalog of problem codes: every code a service answers, with its HTTP status, the sentence it
 * carries as `detail` (a call may give a more precise one) and, where the contract gives one, what a
 * client does about it. Services build their problem documents from here (`problem()` in
 * @engage/kit), the OpenAPI document lists each operation's codes from here, and docs/api.md holds
 * the table `problemTable()` renders.
 */

/** What the contract tells a client to do after this answer ("Retry rules"). */
export type RetryRule = 'resend' | 'wait' | 'fix' | 'backoff';

export const RETRY_RULES: Record<RetryRule, string> = {
  resend: 'nothing written; send the same request again',
  wait: 'nothing written; wait for Retry-After, then resend (send fewer at once)',
  fix: 'nothing changes on its own; fix the request or the setup',
  backoff: 'retry with backoff, with an idempotency key where the endpoint takes one',
};

/** Where a code is answered: the public /v1 API, the operators' admin API, or calls between the services. */
export type ProblemApi = 'public' | 'admin' | 'internal';

export interface ProblemDefinition {
  readonly status: 400 | 401 | 402 | 403 | 404 | 409 | 429 | 500 | 503;
  readonly detail: string;
  readonly retry?: RetryRule;
  readonly api: ProblemApi;
  /** Also refuses a single item of an event batch, inside a 200 answer (`results[].errors`). */
  readonly item?: true;
  /** Not named by the contract: a code engage adds (a rule the contract leaves open). */
  readonly extension?: true;
}

/**
 * Codes refusing only an item of an event batch: the batch answers 200 and the item carries the
 * code in `results[].errors`, so they have no HTTP status of their own.
 */
export interface ItemRefusalDefinition {
  readonly detail: string;
}

export const PROBLEMS = {
  // On any endpoint
  'validation.request': {
    status: 400,
    detail: VALIDATION_DETAIL,
    retry: 'fix',
    api: 'public',
    item: true,
  },
  'auth.api_key_invalid': {
    status: 401,
    detail: 'The API key is missing, malformed, unknown or revoked.',
    retry: 'fix',
    api: 'public',
  },
  billing_required: {
    status: 402,
    detail: 'Live keys need active billing on the organization.',
    api: 'public',
  },
  billing_payment_overdue: {
    status: 402,
    detail: "The organization's last payment failed; Live keys are paused.",
    api: 'public',
  },
  'project_environment.not_found': {
    status: 404,
    detail: 'The environment behind the key did not load.',
    retry: 'fix',
    api: 'public',
  },
  'player.external_id_missing': {
    status: 400,
    detail: 'The request does not name a player.',
    retry: 'fix',
    api: 'public',
    item: true,
  },
  'player.external_id_too_long': {
    status: 400,
    detail: 'The player id is longer than 200 characters.',
    retry: 'fix',
    api: 'public',
    item: true,
  },
  'player.time_zone_invalid': {
    status: 400,
    detail: 'timeZone is not an IANA time zone name.',
    retry: 'fix',
    api: 'public',
    item: true,
  },
  'tenant.too_many_concurrent_requests': {
    status: 429,
    detail: 'Too many requests of the organization are in flight; send fewer at once.',
    retry: 'wait',
    api: 'public',
  },
  'server.unexpected': {
    status: 500,
    detail: 'An unexpected error occurred. Retry with backoff.',
    retry: 'backoff',
    api: 'public',
  },
  // Events
  'event_batch.empty': { status: 400, detail: 'The batch holds no events.', retry: 'fix', api: 'public' },
  'event_batch.too_large': {
    status: 400,
    detail: 'A batch holds at most 1,000 events.',
    retry: 'fix',
    api: 'public',
  },
  'event_batch.concurrent_update': {
    status: 409,
    detail:
      'Other requests were creating the same players at the same instant; nothing was written. Send the batch again.',
    retry: 'resend',
    api: 'public',
  },
  // Player attributes
  'player_attribute.not_found': {
    status: 404,
    detail: 'No attribute with that key is defined.',
    retry: 'fix',
    api: 'public',
  },
  'player_attribute.inactive': { status: 409, detail: 'The attribute is switched off.', api: 'public' },
  'player_attribute.type_mismatch': {
    status: 400,
    detail: 'The value is not of the attribute’s type.',
    retry: 'fix',
    api: 'public',
  },
  'player_attribute.value_too_long': {
    status: 400,
    detail: 'The text is longer than 2,000 characters.',
    retry: 'fix',
    api: 'public',
  },
  'player_attribute.attributes_missing': {
    status: 400,
    detail: 'The request sets no attribute.',
    retry: 'fix',
    api: 'public',
  },
  'player_attribute.concurrent_update': {
    status: 409,
    detail: "Other requests kept writing this player's attributes; nothing was written. Send it again.",
    retry: 'resend',
    api: 'public',
  },
  // Missions and streaks
  'mission.not_found': {
    status: 404,
    detail: 'No mission with that key for this player.',
    retry: 'fix',
    api: 'public',
  },
  'mission.not_locked_in': {
    status: 404,
    detail: 'The player was never entered into the mission.',
    retry: 'fix',
    api: 'public',
  },
  'mission.window_closed': { status: 409, detail: 'The mission is no longer open.', api: 'public' },
  'mission_collection.not_found': {
    status: 404,
    detail: 'No mission collection with that key.',
    retry: 'fix',
    api: 'public',
  },
  'streak.not_found': {
    status: 404,
    detail: 'No streak with that key for this player.',
    retry: 'fix',
    api: 'public',
  },
  // The shop
  'marketplace_item.not_found': {
    status: 404,
    detail: 'No marketplace item with that key.',
    retry: 'fix',
    api: 'public',
  },
  'marketplace_item.inactive': {
    status: 409,
    detail: 'The marketplace item is switched off.',
    api: 'public',
  },
  'marketplace_item.not_available': {
    status: 409,
    detail: 'The marketplace item is not on sale now.',
    api: 'public',
  },
  'marketplace_item.not_eligible': {
    status: 403,
    detail: 'This player may not buy the marketplace item.',
    retry: 'fix',
    api: 'public',
  },
  'marketplace_item.out_of_stock': {
    status: 409,
    detail: 'The marketplace item is sold out. Nothing was charged.',
    api: 'public',
  },
  'marketplace_item.purchase_limit_reached': {
    status: 409,
    detail: 'The player has bought this item as many times as allowed. Nothing was charged.',
    api: 'public',
  },
  'marketplace_item.price_changed': {
    status: 409,
    detail: 'The price of the marketplace item is not the one expected. Nothing was charged.',
    api: 'public',
    extension: true,
  },
  'marketplace_collection.not_found': {
    status: 404,
    detail: 'No marketplace collection with that key.',
    retry: 'fix',
    api: 'public',
    extension: true,
  },
  'marketplace_purchase.idempotency_key_conflict': {
    status: 409,
    detail: 'The idempotency key was already used for a different listing.',
    api: 'public',
  },
  'player.not_found': {
    status: 404,
    detail: 'Nothing has ever been sent for this player.',
    retry: 'fix',
    api: 'public',
  },
  // Points
  'points.insufficient_balance': {
    status: 409,
    detail: 'The debit is larger than the balance; a balance never goes below zero. Nothing was written.',
    api: 'public',
  },
  'points.balance_limit_reached': {
    status: 409,
    detail:
      'The credit would take the balance past the largest balance the ledger keeps. Nothing was written.',
    api: 'public',
    extension: true,
  },
  'points.concurrent_update': {
    status: 409,
    detail:
      'Other requests changed this balance at the same instant. Nothing was written; send the request again.',
    retry: 'resend',
    api: 'public',
  },
  'points_adjustment.amount_zero': {
    status: 400,
    detail: 'The amount must not be zero: send a positive amount to credit, a negative one to debit.',
    retry: 'fix',
    api: 'public',
  },
  'points_adjustment.reason_too_long': {
    status: 400,
    detail: 'The reason must be at most 500 characters.',
    retry: 'fix',
    api: 'public',
  },
  'points_adjustment.idempotency_key_conflict': {
    status: 409,
    detail: 'The idempotency key was already used by a purchase or for a different amount.',
    api: 'public',
  },
  // Leaderboards
  'leaderboard.not_found': {
    status: 404,
    detail: 'No leaderboard with that key for this player.',
    retry: 'fix',
    api: 'public',
    extension: true,
  },
  // Limits
  'sandbox.monthly_active_players_exceeded': {
    status: 409,
    detail: 'This Sandbox has seen its 100th player this month.',
    api: 'public',
  },
  'sandbox.daily_event_limit_exceeded': {
    status: 409,
    detail: 'This Sandbox has taken its 10,000th event today.',
    api: 'public',
  },
  monthly_mau_limit_exceeded: {
    status: 409,
    detail: "The organization's cap on monthly active players is reached.",
    api: 'public',
  },
  // The admin API
  'admin.unauthorized': {
    status: 401,
    detail: 'The admin token is missing or wrong.',
    retry: 'fix',
    api: 'admin',
    extension: true,
  },
  'organization.not_found': {
    status: 404,
    detail: 'No organization with that id.',
    retry: 'fix',
    api: 'admin',
    extension: true,
  },
  'project.not_found': {
    status: 404,
    detail: 'No project with that id.',
    retry: 'fix',
    api: 'admin',
    extension: true,
  },
  'environment.not_found': {
    status: 404,
    detail: 'No environment with that id.',
    retry: 'fix',
    api: 'admin',
    extension: true,
  },
  'api_key.not_found': {
    status: 404,
    detail: 'No API key with that id.',
    retry: 'fix',
    api: 'admin',
    extension: true,
  },
  'leaderboard.settle_sandbox_only': {
    status: 403,
    detail: 'Only Sandbox environments settle a leaderboard on demand.',
    retry: 'fix',
    api: 'admin',
    extension: true,
  },
  'admin.sign_in_failed': {
    status: 401,
    detail: 'The email or the password is wrong.',
    retry: 'fix',
    api: 'admin',
    extension: true,
  },
  'admin.too_many_sign_in_attempts': {
    status: 429,
    detail:
      'Too many failed sign-ins for this email from this address, or from this address; wait, then try again.',
    retry: 'wait',
    api: 'admin',
    extension: true,
  },
  'admin.forbidden': {
    status: 403,
    detail: "The operator's role in the organization does not allow this (`meta.requiredRole`).",
    retry: 'fix',
    api: 'admin',
    extension: true,
  },
  'admin.csrf_failed': {
    status: 403,
    detail: "A write made with the session cookie needs the session's X-CSRF-Token header.",
    retry: 'fix',
    api: 'admin',
    extension: true,
  },
  'recent_events.unavailable': {
    status: 503,
    detail: 'The recent events cannot be read right now (their store is unreachable). Try again shortly.',
    retry: 'backoff',
    api: 'admin',
    extension: true,
  },
  'operator.not_found': {
    status: 404,
    detail: 'No operator with that id in the organization.',
    retry: 'fix',
    api: 'admin',
    extension: true,
  },
  'webhook.not_found': {
    status: 404,
    detail: 'No webhook endpoint with that id.',
    retry: 'fix',
    api: 'admin',
    extension: true,
  },
  'webhook.too_many_endpoints': {
    status: 409,
    detail: 'The environment has the most webhook endpoints allowed; delete one first.',
    api: 'admin',
    extension: true,
  },
  'webhook_delivery.not_found': {
    status: 404,
    detail: 'No delivery with that id for this webhook endpoint.',
    retry: 'fix',
    api: 'admin',
    extension: true,
  },
  'invitation.not_found': {
    status: 404,
    detail:
      'No pending invitation with that id or token for this operator: it may have lapsed or been answered.',
    retry: 'fix',
    api: 'admin',
    extension: true,
  },
  'invitation.concurrent_update': {
    status: 409,
    detail:
      "Another invitation of the email created its account meanwhile: send the request again (with that account's password).",
    retry: 'resend',
    api: 'admin',
    extension: true,
  },
  'operator.password_common': {
    status: 400,
    detail: 'The password is on a list of common or breached passwords: choose another.',
    retry: 'fix',
    api: 'admin',
    extension: true,
  },
  'operator.password_contains_email': {
    status: 400,
    detail: "The password contains the account's email or its local part: choose another.",
    retry: 'fix',
    api: 'admin',
    extension: true,
  },
  'operator.password_repetitive': {
    status: 400,
    detail: 'The password is a few characters repeated: choose another.',
    retry: 'fix',
    api: 'admin',
    extension: true,
  },
  'operator.already_member': {
    status: 409,
    detail: 'The operator already belongs to the organization.',
    api: 'admin',
    extension: true,
  },
  'operator.last_owner': {
    status: 409,
    detail: 'The organization would be left without an Owner.',
    api: 'admin',
    extension: true,
  },
  'definition.unknown_event': {
    status: 400,
    detail: 'The file names an event it does not define (`meta.path`, `meta.closest`).',
    retry: 'fix',
    api: 'admin',
    extension: true,
  },
  'definition.unknown_property': {
    status: 400,
    detail: 'The file names a property its event does not define (`meta.path`, `meta.closest`).',
    retry: 'fix',
    api: 'admin',
    extension: true,
  },
  'definition.unknown_mission': {
    status: 400,
    detail: 'A collection names a mission the file does not define (`meta.path`, `meta.closest`).',
    retry: 'fix',
    api: 'admin',
    extension: true,
  },
  'console.not_built': {
    status: 404,
    detail: 'The console is not built: run `npm run build -w console`.',
    retry: 'fix',
    api: 'admin',
    extension: true,
  },
  // Any API, before a route
  'route.not_found': { status: 404, detail: 'No such route.', retry: 'fix', api: 'public', extension: true },
  // Calls between the services
  'internal.unauthorized': {
    status: 401,
    detail: 'The call does not carry the gateway’s signature.',
    api: 'internal',
    extension: true,
  },
} as const satisfies Record<string, ProblemDefinition>;

export type ProblemCode = keyof typeof PROBLEMS;

/** `validation.<field>`: a refused field, in snake case (fields.ts). */
export type ValidationCode = `validation.${string}`;

export const ITEM_REFUSALS = {
  'event.not_found': { detail: 'No event with that key is defined.' },
  'event.inactive': { detail: 'The event is switched off.' },
  'event.unknown_property': { detail: 'The event has no property of that name.' },
  'event.required_property_missing': { detail: 'A required property of the event is missing.' },
  'event.property_type_mismatch': { detail: 'A property is not of its defined type.' },
  'event.property_value_out_of_range': {
    detail: 'A number has more than 8 decimal places or 20 digits before the point.',
  },
  'event.item_missing': { detail: 'The item is empty.' },
} as const satisfies Record<string, ItemRefusalDefinition>;

export type ItemRefusalCode = keyof typeof ITEM_REFUSALS;

/**
 * Codes of warnings an applied environment file answers (`warnings` of the difference, status 200):
 * the file applies, but names something known only from discovery.
 */
export const DEFINITION_WARNINGS = {
  'definition.undeclared_event': { detail: 'The file names an event known only from discovery.' },
  'definition.undeclared_property': { detail: 'The file names a property known only from discovery.' },
} as const satisfies Record<string, ItemRefusalDefinition>;

export type DefinitionWarningCode = keyof typeof DEFINITION_WARNINGS;

/** Any code an error of a problem document or of a refused batch item can carry. */
export type AnyProblemCode = ProblemCode | ItemRefusalCode | DefinitionWarningCode | ValidationCode;

export const PROBLEM_CODES = Object.keys(PROBLEMS) as ProblemCode[];

export const isProblemCode = (code: string): code is ProblemCode => Object.hasOwn(PROBLEMS, code);
