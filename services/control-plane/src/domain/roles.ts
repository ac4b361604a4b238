import type { Role } from '@engage/contracts/http/operators.ts';

/**
 * Who may call each admin route. `public`: no credential (signing in); `signed-in`: any valid
 * credential; `admin-token`: the deployment's own credential only (creating organizations, their
 * billing); a role: an operator with at least that role in the organization the route names.
 */
export type RouteRule = 'public' | 'signed-in' | 'admin-token' | Role;

/** Every admin route, `METHOD /path` as registered under /admin/v1. A route not listed is refused at startup. */
export const ADMIN_ROUTE_RULES: Readonly<Record<string, RouteRule>> = {
  'POST /session': 'public',
  'GET /session': 'public',
  'DELETE /session': 'public',
  'GET /schemas/environment.json': 'signed-in',
  'GET /organizations': 'signed-in',
  'POST /organizations': 'admin-token',
  'GET /organizations/:organizationId': 'viewer',
  'GET /organizations/:organizationId/usage': 'viewer',
  'PATCH /organizations/:organizationId': 'admin-token',
  'POST /organizations/:organizationId/projects': 'admin',
  'GET /organizations/:organizationId/operators': 'owner',
  'PATCH /organizations/:organizationId/operators/:operatorId': 'owner',
  'DELETE /organizations/:organizationId/operators/:operatorId': 'owner',
  'GET /organizations/:organizationId/invitations': 'owner',
  'POST /organizations/:organizationId/invitations': 'owner',
  'DELETE /organizations/:organizationId/invitations/:invitationId': 'owner',
  // The invitee's own: only invitations addressed to the signed-in operator's email answer.
  'GET /invitations': 'signed-in',
  'POST /invitations/:invitationId/accept': 'signed-in',
  'POST /invitations/:invitationId/decline': 'signed-in',
  // The token is the credential; an existing account's password is checked as at sign-in.
  'POST /invitations/accept': 'public',
  'GET /organizations/:organizationId/audit-log': 'admin',
  'GET /projects/:projectId': 'viewer',
  'POST /environments/:environmentId/api-keys': 'admin',
  'GET /environments/:environmentId/api-keys': 'viewer',
  'DELETE /api-keys/:apiKeyId': 'admin',
  'GET /environments/:environmentId/definition': 'viewer',
  // Content only: a file that switches discovery needs `admin` (checked with the current state).
  'PUT /environments/:environmentId/definition': 'designer',
  'GET /environments/:environmentId/definition/history': 'viewer',
  'POST /environments/:environmentId/leaderboards/:leaderboardKey/settle': 'designer',
  // Players and boards (the console's Players and Leaderboards pages): reads for all, adjustments for support.
  'GET /environments/:environmentId/players': 'viewer',
  'GET /environments/:environmentId/players/:playerId': 'viewer',
  'GET /environments/:environmentId/players/:playerId/points': 'viewer',
  'GET /environments/:environmentId/players/:playerId/journal': 'viewer',
  'GET /environments/:environmentId/players/:playerId/missions': 'viewer',
  'GET /environments/:environmentId/players/:playerId/streaks': 'viewer',
  'POST /environments/:environmentId/players/:playerId/points/adjustments': 'support',
  'GET /environments/:environmentId/leaderboards/:leaderboardKey': 'viewer',
  'GET /environments/:environmentId/leaderboards/:leaderboardKey/periods': 'viewer',
  'GET /environments/:environmentId/events/recent': 'viewer',
  // Webhooks: an endpoint's secret and where the environment's changes go are the admin's to set.
  'POST /environments/:environmentId/webhooks': 'admin',
  'GET /environments/:environmentId/webhooks': 'viewer',
  'GET /webhooks/:webhookId': 'viewer',
  'PATCH /webhooks/:webhookId': 'admin',
  'DELETE /webhooks/:webhookId': 'admin',
  'POST /webhooks/:webhookId/rotate-secret': 'admin',
  'GET /webhooks/:webhookId/deliveries': 'viewer',
  'POST /webhooks/:webhookId/deliveries/:deliveryId/replay': 'admin',
  'POST /webhooks/:webhookId/ping': 'admin',
};

export const routeKey = (method: string, url: string) => `${method} ${url}`;

/**
 * Roles above each role: they may do all it may. Designer (content) and Support (players) are
 * side by side: neither may do the other's work.
 */
const ABOVE: Record<Role, readonly Role[]> = {
  owner: [],
  admin: ['owner'],
  designer: ['admin', 'owner'],
  support: ['admin', 'owner'],
  viewer: ['support', 'designer', 'admin', 'owner'],
};

export function roleSatisfies(held: Role, required: Role): boolean {
  return held === required || ABOVE[required].includes(held);
}

export const isWrite = (method: string) => !['GET', 'HEAD', 'OPTIONS'].includes(method);
