import { z } from 'zod';
import { QueryInt32Schema } from './common.ts';
import { EnvironmentKindSchema } from './internal.ts';

/** The admin API (`/admin/v1`, Bearer ADMIN_TOKEN): the control plane of organizations, projects and keys. */

export const BillingStatusSchema = z.enum(['active', 'none', 'overdue']);
export type BillingStatus = z.infer<typeof BillingStatusSchema>;

const timestamp = z.iso.datetime();
const name = z.string().trim().min(1).max(200);
/** Monthly active players a Live environment may see; null means no cap. */
const mauCap = z.int().min(1).max(2_000_000_000).nullable();

export const OrganizationSchema = z
  .object({
    organizationId: z.uuid(),
    name: z.string(),
    billingStatus: BillingStatusSchema,
    liveMonthlyActivePlayersCap: z.int().nullable(),
    createdAtUtc: timestamp,
    updatedAtUtc: timestamp,
  })
  .meta({ id: 'AdminOrganization' });
export type Organization = z.infer<typeof OrganizationSchema>;

export const CreateOrganizationSchema = z.strictObject({
  name,
  billingStatus: BillingStatusSchema.default('none'),
  liveMonthlyActivePlayersCap: mauCap.default(null),
});
export type CreateOrganization = z.input<typeof CreateOrganizationSchema>;

export const UpdateOrganizationSchema = z.strictObject({
  billingStatus: BillingStatusSchema.optional(),
  liveMonthlyActivePlayersCap: mauCap.optional(),
});
export type UpdateOrganization = z.input<typeof UpdateOrganizationSchema>;

export const MAX_ORGANIZATIONS_PER_PAGE = 500;

/** `GET /admin/v1/organizations`: a page of organizations, oldest first, optionally of one name. */
export const ListOrganizationsQuerySchema = z.strictObject({
  limit: QueryInt32Schema.pipe(z.int().min(1).max(MAX_ORGANIZATIONS_PER_PAGE)).default(100),
  /** The `nextCursor` of the previous page. */
  after: z.uuid().optional(),
  name: name.optional(),
});
export type ListOrganizationsQuery = z.input<typeof ListOrganizationsQuerySchema>;

export const OrganizationPageSchema = z
  .object({
    organizations: z.array(OrganizationSchema),
    /** Pass as `after` for the next page; null on the last page. */
    nextCursor: z.uuid().nullable(),
  })
  .meta({ id: 'AdminOrganizationPage' });
export type OrganizationPage = z.infer<typeof OrganizationPageSchema>;

export const EnvironmentSchema = z
  .object({
    environmentId: z.uuid(),
    projectId: z.uuid(),
    kind: EnvironmentKindSchema,
    discovery: z.boolean(),
  })
  .meta({ id: 'AdminEnvironment' });
export type Environment = z.infer<typeof EnvironmentSchema>;

export const ProjectSchema = z
  .object({
    projectId: z.uuid(),
    organizationId: z.uuid(),
    name: z.string(),
    createdAtUtc: timestamp,
    sandbox: EnvironmentSchema,
    live: EnvironmentSchema,
  })
  .meta({ id: 'AdminProject' });
export type Project = z.infer<typeof ProjectSchema>;

export const CreateProjectSchema = z.strictObject({ name });
export type CreateProject = z.input<typeof CreateProjectSchema>;

export const OrganizationDetailSchema = OrganizationSchema.extend({ projects: z.array(ProjectSchema) }).meta({
  id: 'AdminOrganizationDetail',
});
export type OrganizationDetail = z.infer<typeof OrganizationDetailSchema>;

export const ApiKeySchema = z
  .object({
    apiKeyId: z.uuid(),
    environmentId: z.uuid(),
    kind: EnvironmentKindSchema,
    publicId: z.string(),
    name: z.string().nullable(),
    createdAtUtc: timestamp,
    revokedAtUtc: timestamp.nullable(),
    lastUsedAtUtc: timestamp.nullable(),
  })
  .meta({ id: 'AdminApiKey' });
export type ApiKey = z.infer<typeof ApiKeySchema>;

/** Returned once, when the key is created: `apiKey` is never shown again. */
export const CreatedApiKeySchema = ApiKeySchema.extend({ apiKey: z.string() }).meta({
  id: 'AdminCreatedApiKey',
});
export type CreatedApiKey = z.infer<typeof CreatedApiKeySchema>;

export const CreateApiKeySchema = z.strictObject({ name: name.optional() });
export type CreateApiKey = z.input<typeof CreateApiKeySchema>;

/** A Sandbox board's period settled on demand (`POST …/leaderboards/{leaderboardKey}/settle`). */
export const SettledLeaderboardPeriodSchema = z
  .object({
    leaderboardKey: z.string(),
    periodStartsAtUtc: timestamp,
    /** Where the cut period ended: now. */
    periodEndsAtUtc: timestamp.nullable(),
    /** Rows given a final rank (players, or teams on a team board). */
    participants: z.int(),
  })
  .meta({ id: 'AdminSettledLeaderboardPeriod' });
export type SettledLeaderboardPeriod = z.infer<typeof SettledLeaderboardPeriodSchema>;

/**
 * How much of a limit is used. `limit` is the figure as the contract states it (a Sandbox refuses its
 * 100th player and its 10,000th event; a Live cap is the most players admitted); null: no limit.
 */
export const UsageMeterSchema = z
  .object({ used: z.int().min(0), limit: z.int().nullable() })
  .meta({ id: 'AdminUsageMeter' });
export type UsageMeter = z.infer<typeof UsageMeterSchema>;

/** `GET /admin/v1/organizations/{organizationId}/usage`: the organization's usage against its limits, now. */
export const OrganizationUsageSchema = z
  .object({
    organizationId: z.uuid(),
    /** The UTC month the monthly counts are of, `YYYY-MM`. */
    month: z.string(),
    /** The UTC day the daily counts are of, `YYYY-MM-DD`. */
    day: z.string(),
    /** Players active this month in the organization's Live environments, against its cap (null: no cap). */
    liveMonthlyActivePlayers: UsageMeterSchema,
    /** The organization's requests in flight: the contract's limit and the requests it refused today. */
    requestsInFlight: z.object({ limit: z.int(), refusedToday: z.int().min(0) }),
    /** Each project's Sandbox: its players this month and events today, against the Sandbox limits. */
    sandboxes: z.array(
      z.object({
        projectId: z.uuid(),
        environmentId: z.uuid(),
        monthlyActivePlayers: UsageMeterSchema,
        eventsToday: UsageMeterSchema,
      }),
    ),
  })
  .meta({ id: 'AdminOrganizationUsage' });
export type OrganizationUsage = z.infer<typeof OrganizationUsageSchema>;
