import type { ProblemItem } from '@engage/contracts';
import type { EnvironmentDiff, EnvironmentFileInput } from '@engage/contracts/environment-file.ts';
import {
  type ApiKey,
  type BillingStatus,
  type CreatedApiKey,
  type ListOrganizationsQuery,
  MAX_ORGANIZATIONS_PER_PAGE,
  type Organization,
  type OrganizationDetail,
  type OrganizationPage,
  type Project,
  type SettledLeaderboardPeriod,
} from '@engage/contracts/http/admin.ts';
import type {
  AcceptInvitation,
  AuditLogPage,
  CreatedInvitation,
  CreateInvitation,
  Invitation,
  ListAuditLogQuery,
  Membership,
  Operator,
  Role,
} from '@engage/contracts/http/operators.ts';
import type { PlayerSearchQuery } from '@engage/contracts/http/player-search.ts';
import type { SupportAdjustment } from '@engage/contracts/http/player-support.ts';
import type {
  CreatedWebhookEndpoint,
  CreateWebhook,
  ListWebhookDeliveriesQuery,
  RotatedWebhookSecret,
  RotateWebhookSecret,
  UpdateWebhook,
  WebhookDelivery,
  WebhookDeliveryPage,
  WebhookEndpoint,
  WebhookEndpointList,
} from '@engage/contracts/http/webhooks.ts';
import { parse as parseLossless } from 'lossless-json';
import { request } from 'undici';

/** A refusal of the admin API, carrying its problem document. */
export class AdminApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly body: unknown;

  constructor(status: number, body: unknown) {
    const doc = body as { code?: string; detail?: string; errors?: ProblemItem[] };
    const details = doc?.errors?.map((e) => `\n  ${describeProblemItem(e)}`).join('');
    super(`admin API answered ${status}${details ?? ''}`);
    this.name = 'AdminApiError';
    this.status = status;
    this.code = doc?.code ?? 'unknown';
    this.body = body;
  }
}

/**
 * One error or warning on one line: its code, message and where in the request it is (`meta.path`),
 * with the nearest known names when a reference is unknown (`meta.closest`).
 */
export function describeProblemItem(item: ProblemItem): string {
  const meta = item.meta ?? {};
  const where = typeof meta.path === 'string' && meta.path !== '' ? [`at ${meta.path}`] : [];
  const closest =
    Array.isArray(meta.closest) && meta.closest.length > 0 ? [`closest: ${meta.closest.join(', ')}`] : [];
  const suffix = [...where, ...closest].join('; ');
  return `${item.code}: ${item.message}${suffix ? ` (${suffix})` : ''}`;
}

export interface AdminClientOptions {
  /** The control plane's address, e.g. http://127.0.0.1:8084. */
  url: string;
  /** The control plane's ADMIN_TOKEN (absent: only the public routes answer, e.g. accepting an invitation). */
  token?: string | undefined;
}

/** Typed client of the control plane's admin API (/admin/v1), shared by the CLI, the testkit and the dev stack. */
export class AdminClient {
  private readonly base: string;
  private readonly token: string | undefined;

  constructor(options: AdminClientOptions) {
    this.base = options.url.replace(/\/+$/, '');
    this.token = options.token;
  }

  createOrganization(input: {
    name: string;
    billingStatus?: BillingStatus;
    liveMonthlyActivePlayersCap?: number | null;
  }): Promise<Organization> {
    return this.call('POST', '/organizations', input);
  }

  /** One page of organizations, oldest first. */
  listOrganizationsPage(query: ListOrganizationsQuery = {}): Promise<OrganizationPage> {
    const search = new URLSearchParams();
    for (const [key, value] of Object.entries(query)) if (value !== undefined) search.set(key, String(value));
    const suffix = search.size > 0 ? `?${search}` : '';
    return this.call('GET', `/organizations${suffix}`);
  }

  /** Every organization (of one name, if given), following the pages to the end. */
  async listOrganizations(filter: { name?: string } = {}): Promise<Organization[]> {
    const organizations: Organization[] = [];
    let after: string | undefined;
    do {
      const page = await this.listOrganizationsPage({ ...filter, after, limit: MAX_ORGANIZATIONS_PER_PAGE });
      organizations.push(...page.organizations);
      after = page.nextCursor ?? undefined;
    } while (after);
    return organizations;
  }

  getOrganization(organizationId: string): Promise<OrganizationDetail> {
    return this.call('GET', `/organizations/${enc(organizationId)}`);
  }

  updateOrganization(
    organizationId: string,
    patch: { billingStatus?: BillingStatus; liveMonthlyActivePlayersCap?: number | null },
  ): Promise<Organization> {
    return this.call('PATCH', `/organizations/${enc(organizationId)}`, patch);
  }

  createProject(organizationId: string, input: { name: string }): Promise<Project> {
    return this.call('POST', `/organizations/${enc(organizationId)}/projects`, input);
  }

  getProject(projectId: string): Promise<Project> {
    return this.call('GET', `/projects/${enc(projectId)}`);
  }

  createApiKey(environmentId: string, input: { name?: string } = {}): Promise<CreatedApiKey> {
    return this.call('POST', `/environments/${enc(environmentId)}/api-keys`, input);
  }

  async listApiKeys(environmentId: string): Promise<ApiKey[]> {
    return (await this.call<{ apiKeys: ApiKey[] }>('GET', `/environments/${enc(environmentId)}/api-keys`))
      .apiKeys;
  }

  revokeApiKey(apiKeyId: string): Promise<ApiKey> {
    return this.call('DELETE', `/api-keys/${enc(apiKeyId)}`);
  }

  getDefinition(environmentId: string): Promise<EnvironmentFileInput> {
    return this.call('GET', `/environments/${enc(environmentId)}/definition`);
  }

  applyDefinition(
    environmentId: string,
    file: EnvironmentFileInput,
    options: { dryRun?: boolean } = {},
  ): Promise<EnvironmentDiff> {
    const query = options.dryRun ? '?dryRun=true' : '';
    return this.call('PUT', `/environments/${enc(environmentId)}/definition${query}`, file);
  }

  /** Sandbox only: settles the board's period in progress now (403 leaderboard.settle_sandbox_only on Live). */
  settleLeaderboard(environmentId: string, leaderboardKey: string): Promise<SettledLeaderboardPeriod> {
    return this.call(
      'POST',
      `/environments/${enc(environmentId)}/leaderboards/${enc(leaderboardKey)}/settle`,
    );
  }

  async listOperators(organizationId: string): Promise<Operator[]> {
    const path = `/organizations/${enc(organizationId)}/operators`;
    return (await this.call<{ operators: Operator[] }>('GET', path)).operators;
  }

  /**
   * Invites an email to the organization with a role (the same answer whether or not it has an
   * account); the token, shown once, is for the invitee.
   */
  inviteOperator(organizationId: string, input: CreateInvitation): Promise<CreatedInvitation> {
    return this.call('POST', `/organizations/${enc(organizationId)}/invitations`, input);
  }

  async listInvitations(organizationId: string): Promise<Invitation[]> {
    const path = `/organizations/${enc(organizationId)}/invitations`;
    return (await this.call<{ invitations: Invitation[] }>('GET', path)).invitations;
  }

  async revokeInvitation(organizationId: string, invitationId: string): Promise<void> {
    await this.call('DELETE', `/organizations/${enc(organizationId)}/invitations/${enc(invitationId)}`);
  }

  /** Accepts an invitation with its token: an existing account's password, or a new account's. */
  acceptInvitation(input: AcceptInvitation): Promise<Membership> {
    return this.call('POST', '/invitations/accept', input);
  }

  changeOperatorRole(organizationId: string, operatorId: string, role: Role): Promise<Operator> {
    return this.call('PATCH', `/organizations/${enc(organizationId)}/operators/${enc(operatorId)}`, { role });
  }

  async removeOperator(organizationId: string, operatorId: string): Promise<void> {
    await this.call('DELETE', `/organizations/${enc(organizationId)}/operators/${enc(operatorId)}`);
  }

  /** One page of the organization's audit log, oldest first. */
  auditLog(organizationId: string, query: ListAuditLogQuery = {}): Promise<AuditLogPage> {
    const search = new URLSearchParams();
    for (const [key, value] of Object.entries(query)) if (value !== undefined) search.set(key, String(value));
    const suffix = search.size > 0 ? `?${search}` : '';
    return this.call('GET', `/organizations/${enc(organizationId)}/audit-log${suffix}`);
  }

  /** Subscribes an endpoint; the answer holds its signing secret, shown only here and on rotation. */
  createWebhook(environmentId: string, input: CreateWebhook): Promise<CreatedWebhookEndpoint> {
    return this.call('POST', `/environments/${enc(environmentId)}/webhooks`, input);
  }

  async listWebhooks(environmentId: string): Promise<WebhookEndpoint[]> {
    return (await this.call<WebhookEndpointList>('GET', `/environments/${enc(environmentId)}/webhooks`))
      .items;
  }

  getWebhook(webhookId: string): Promise<WebhookEndpoint> {
    return this.call('GET', `/webhooks/${enc(webhookId)}`);
  }

  /** `status: 'active'` resumes a paused endpoint. */
  updateWebhook(webhookId: string, patch: UpdateWebhook): Promise<WebhookEndpoint> {
    return this.call('PATCH', `/webhooks/${enc(webhookId)}`, patch);
  }

  async deleteWebhook(webhookId: string): Promise<void> {
    await this.call('DELETE', `/webhooks/${enc(webhookId)}`);
  }

  rotateWebhookSecret(webhookId: string, input: RotateWebhookSecret = {}): Promise<RotatedWebhookSecret> {
    return this.call('POST', `/webhooks/${enc(webhookId)}/rotate-secret`, input);
  }

  /** One page of the endpoint's deliveries, newest first. */
  listWebhookDeliveries(
    webhookId: string,
    query: ListWebhookDeliveriesQuery = {},
  ): Promise<WebhookDeliveryPage> {
    const search = new URLSearchParams();
    for (const [key, value] of Object.entries(query)) if (value !== undefined) search.set(key, String(value));
    const suffix = search.size > 0 ? `?${search}` : '';
    return this.call('GET', `/webhooks/${enc(webhookId)}/deliveries${suffix}`);
  }

  replayWebhookDelivery(webhookId: string, deliveryId: string): Promise<WebhookDelivery> {
    return this.call('POST', `/webhooks/${enc(webhookId)}/deliveries/${enc(deliveryId)}/replay`);
  }

  pingWebhook(webhookId: string): Promise<WebhookDelivery> {
    return this.call('POST', `/webhooks/${enc(webhookId)}/ping`);
  }

  /** A player as stored, its attribute numbers exact (lossless-json numbers). */
  getPlayer(environmentId: string, playerId: string): Promise<unknown> {
    return this.call('GET', `/environments/${enc(environmentId)}/players/${enc(playerId)}`, undefined, {
      lossless: true,
    });
  }

  getPlayerPoints(environmentId: string, playerId: string): Promise<{ balance: number }> {
    return this.call('GET', `/environments/${enc(environmentId)}/players/${enc(playerId)}/points`);
  }

  /** One page of the environment's players by id prefix and attribute, attribute numbers exact. */
  searchPlayers(
    environmentId: string,
    query: Partial<PlayerSearchQuery>,
  ): Promise<{ players: unknown[]; nextCursor: string | null }> {
    const search = new URLSearchParams();
    for (const [key, value] of Object.entries(query)) if (value !== undefined) search.set(key, String(value));
    const suffix = search.size > 0 ? `?${search}` : '';
    return this.call('GET', `/environments/${enc(environmentId)}/players${suffix}`, undefined, {
      lossless: true,
    });
  }

  /** Support's adjustment; the same idempotency key on a retry never moves the points twice. */
  adjustPlayerPoints(
    environmentId: string,
    playerId: string,
    adjustment: SupportAdjustment,
    idempotencyKey: string,
  ): Promise<{ transactionId: string; balance: number }> {
    return this.call(
      'POST',
      `/environments/${enc(environmentId)}/players/${enc(playerId)}/points/adjustments`,
      adjustment,
      { headers: { 'idempotency-key': idempotencyKey } },
    );
  }

  /** Served without the admin token, for editors. */
  environmentSchemaUrl(): string {
    return `${this.base}/schemas/environment.json`;
  }

  private async call<T>(
    method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE',
    path: string,
    body?: unknown,
    options: { headers?: Record<string, string>; lossless?: boolean } = {},
  ): Promise<T> {
    const response = await request(`${this.base}/admin/v1${path}`, {
      method,
      headers: {
        ...(this.token === undefined ? {} : { authorization: `Bearer ${this.token}` }),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...options.headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.body.text();
    const parse = options.lossless && response.statusCode < 400 ? parseLossless : JSON.parse;
    const parsed: unknown = text ? parse(text) : undefined;
    if (response.statusCode >= 400) throw new AdminApiError(response.statusCode, parsed);
    return parsed as T;
  }
}

const enc = encodeURIComponent;
