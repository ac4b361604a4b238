import { z } from 'zod';
import { QueryInt32Schema } from './common.ts';

/**
 * Operators of the admin API and console (`/admin/v1`): sign-in sessions, roles per organization
 * and the audit log. The session shapes are the console's contract.
 */

export const ROLES = ['owner', 'admin', 'designer', 'support', 'viewer'] as const;
export const RoleSchema = z.enum(ROLES);
export type Role = z.infer<typeof RoleSchema>;

const timestamp = z.iso.datetime();
export const EmailSchema = z
  .string()
  .trim()
  .max(254)
  .pipe(z.email())
  .transform((email) => email.toLowerCase());
/** Long enough to resist guessing; the upper bound keeps hashing cheap for the server. */
export const PasswordSchema = z.string().min(12).max(1024);
const displayName = z.string().trim().min(1).max(200);

export const SignInSchema = z.strictObject({ email: z.string().max(254), password: z.string().max(1024) });
export type SignIn = z.input<typeof SignInSchema>;

export const MembershipSchema = z
  .object({ organizationId: z.uuid(), organizationName: z.string(), role: RoleSchema })
  .meta({ id: 'AdminMembership' });
export type Membership = z.infer<typeof MembershipSchema>;

export const SessionSchema = z
  .object({
    operator: z.object({ id: z.uuid(), email: z.string(), displayName: z.string() }),
    memberships: z.array(MembershipSchema),
    /** Send as `X-CSRF-Token` with every write made with the session cookie. */
    csrfToken: z.string(),
  })
  .meta({ id: 'AdminSession' });
export type Session = z.infer<typeof SessionSchema>;

export const OperatorSchema = z
  .object({
    operatorId: z.uuid(),
    email: z.string(),
    displayName: z.string(),
    role: RoleSchema,
    createdAtUtc: timestamp,
  })
  .meta({ id: 'AdminOperator' });
export type Operator = z.infer<typeof OperatorSchema>;

/**
 * Invites an email to the organization with a role. The answer is the same whether or not an
 * account has the email: the invitee accepts signed in, or with the token (a new account sets its
 * password then).
 */
export const CreateInvitationSchema = z.strictObject({ email: EmailSchema, role: RoleSchema });
export type CreateInvitation = z.input<typeof CreateInvitationSchema>;

export const InvitationSchema = z
  .object({
    invitationId: z.uuid(),
    organizationId: z.uuid(),
    organizationName: z.string(),
    email: z.string(),
    role: RoleSchema,
    createdAtUtc: timestamp,
    /** Not accepted by then, it lapses. */
    expiresAtUtc: timestamp,
  })
  .meta({ id: 'AdminInvitation' });
export type Invitation = z.infer<typeof InvitationSchema>;

export const CreatedInvitationSchema = InvitationSchema.extend({
  /** For the invitee only (e.g. in a link); shown once, never again. */
  token: z.string(),
}).meta({ id: 'AdminCreatedInvitation' });
export type CreatedInvitation = z.infer<typeof CreatedInvitationSchema>;

export const InvitationListSchema = z
  .object({ invitations: z.array(InvitationSchema) })
  .meta({ id: 'AdminInvitationList' });

/**
 * Accepts an invitation by its token, without a session: with the account's password when the
 * email has an account, else with the password (and name) of the account it creates.
 */
export const AcceptInvitationSchema = z.strictObject({
  token: z.string().max(200),
  password: PasswordSchema,
  displayName: displayName.optional(),
});
export type AcceptInvitation = z.input<typeof AcceptInvitationSchema>;

export const UpdateOperatorSchema = z.strictObject({ role: RoleSchema });
export type UpdateOperator = z.input<typeof UpdateOperatorSchema>;

export const MAX_AUDIT_ENTRIES_PER_PAGE = 500;

const auditPage = {
  limit: QueryInt32Schema.pipe(z.int().min(1).max(MAX_AUDIT_ENTRIES_PER_PAGE)).default(100),
  /** The `nextCursor` of the previous page. */
  after: z.uuid().optional(),
};

export const AUDIT_LOG_ORDERS = ['oldest', 'newest'] as const;

/** The longest route text an audit log filter may name (the routes themselves are shorter). */
export const MAX_AUDIT_ROUTE_FILTER = 200;

export const ListAuditLogQuerySchema = z
  .strictObject({
    ...auditPage,
    /** `oldest` first (the default, for readers following the log) or `newest` first (the console). */
    order: z.enum(AUDIT_LOG_ORDERS).default('oldest'),
    /** Only the writes that named this environment (its file's applies, its keys). */
    environmentId: z.uuid().optional(),
    /** Only the writes of the operator with this email (compared lower-cased). */
    operatorEmail: EmailSchema.optional(),
    /** Only the writes whose route, as registered (`/api-keys/:apiKeyId`), contains this text. */
    route: z.string().min(1).max(MAX_AUDIT_ROUTE_FILTER).optional(),
    /** Only the writes made at this time or later. */
    from: z.iso.datetime({ offset: true }).optional(),
    /** Only the writes made before this time. */
    to: z.iso.datetime({ offset: true }).optional(),
  })
  .refine((query) => !query.from || !query.to || Date.parse(query.from) < Date.parse(query.to), {
    path: ['to'],
    message: 'to must be later than from',
  });
export type ListAuditLogQuery = z.input<typeof ListAuditLogQuerySchema>;

/** An environment's applied versions: the audit entries that changed its file, newest first. */
export const ListDefinitionHistoryQuerySchema = z.strictObject(auditPage);
export type ListDefinitionHistoryQuery = z.input<typeof ListDefinitionHistoryQuerySchema>;

export const AuditEntrySchema = z
  .object({
    auditId: z.uuid(),
    atUtc: timestamp,
    actor: z.object({
      kind: z.enum(['operator', 'admin-token']),
      operatorId: z.uuid().nullable(),
      email: z.string().nullable(),
    }),
    method: z.string(),
    /** The route as registered, with its parameters named (`/api-keys/:apiKeyId`). */
    route: z.string(),
    /** The ids the write named or created. */
    targets: z.record(z.string(), z.string()),
    /** The changed resource before the write (null when it created it). */
    before: z.unknown(),
    /** The changed resource after the write (null when it removed it). */
    after: z.unknown(),
    /** For an environment file apply: the difference it answered. */
    difference: z.unknown(),
    /** `denied`: the write was refused for lack of permission and changed nothing. */
    outcome: z.enum(['allowed', 'denied']),
    /** For a denied write: the refusal's problem code (`admin.forbidden`, ...). */
    refusal: z.string().nullable(),
  })
  .meta({ id: 'AdminAuditEntry' });
export type AuditEntry = z.infer<typeof AuditEntrySchema>;

export const AuditLogPageSchema = z
  .object({ entries: z.array(AuditEntrySchema), nextCursor: z.uuid().nullable() })
  .meta({ id: 'AdminAuditLogPage' });
export type AuditLogPage = z.infer<typeof AuditLogPageSchema>;
