import { problemResponses } from '@engage/contracts/http/openapi-problem-responses.ts';
import {
  AcceptInvitationSchema,
  AuditLogPageSchema,
  CreatedInvitationSchema,
  CreateInvitationSchema,
  InvitationListSchema,
  InvitationSchema,
  MAX_AUDIT_ROUTE_FILTER,
  MembershipSchema,
  OperatorSchema,
  SessionSchema,
  SignInSchema,
  UpdateOperatorSchema,
} from '@engage/contracts/http/operators.ts';
import { z } from 'zod';

/**
 * The console's admin operations in the OpenAPI document: the session, an organization's
 * operators, invitations to it and its audit log. They take an operator's session cookie (writes with the
 * `X-CSRF-Token` header) or the admin token.
 */

type JsonSchema = Record<string, unknown>;

export const SESSION_SECURITY_SCHEME = {
  type: 'apiKey',
  in: 'cookie',
  name: 'engage_session',
  description:
    'The session cookie set by POST /admin/v1/session. Writes made with it also need the session’s ' +
    '`csrfToken` in the `X-CSRF-Token` header (else 403 `admin.csrf_failed`).',
};

const json = (description: string, ref: string) => ({
  description,
  content: { 'application/json': { schema: { $ref: `#/components/schemas/${ref}` } } },
});
const body = (ref: string) => ({
  required: true,
  content: { 'application/json': { schema: { $ref: `#/components/schemas/${ref}` } } },
});
const uuid = (name: string) => ({
  name,
  in: 'path',
  required: true,
  schema: { type: 'string', format: 'uuid' },
});
const pageParameters = [
  { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 500, default: 100 } },
  {
    name: 'after',
    in: 'query',
    description: "The previous page's `nextCursor`.",
    schema: { type: 'string', format: 'uuid' },
  },
];
const either = [{ sessionCookie: [] }, { adminToken: [] }];
const REFUSALS = [
  'validation.request',
  'admin.unauthorized',
  'admin.forbidden',
  'admin.csrf_failed',
  'organization.not_found',
  'operator.not_found',
] as const;
const refusals = problemResponses(REFUSALS);

export function operatorOperations(): {
  paths: Record<string, Record<string, unknown>>;
  schemas: Record<string, JsonSchema>;
} {
  const input = z.toJSONSchema(
    z.object({
      a: SignInSchema.meta({ id: 'AdminSignIn' }),
      b: CreateInvitationSchema.meta({ id: 'AdminCreateInvitation' }),
      c: UpdateOperatorSchema.meta({ id: 'AdminUpdateOperator' }),
      d: AcceptInvitationSchema.meta({ id: 'AdminAcceptInvitation' }),
    }),
    { io: 'input', target: 'draft-2020-12' },
  ) as { $defs?: Record<string, JsonSchema> };
  const output = z.toJSONSchema(
    z.object({
      a: SessionSchema,
      b: OperatorSchema,
      c: AuditLogPageSchema,
      d: z.object({ operators: z.array(OperatorSchema) }).meta({ id: 'AdminOperatorList' }),
      e: InvitationSchema,
      f: CreatedInvitationSchema,
      g: InvitationListSchema,
      h: MembershipSchema,
    }),
    { io: 'output', target: 'draft-2020-12' },
  ) as { $defs?: Record<string, JsonSchema> };
  // zod names nested schemas `#/$defs/…`: in the document they are components.
  const schemas = JSON.parse(
    JSON.stringify({ ...input.$defs, ...output.$defs }).replaceAll('"#/$defs/', '"#/components/schemas/'),
  ) as Record<string, JsonSchema>;
  return { paths: paths(), schemas };
}

function paths(): Record<string, Record<string, unknown>> {
  const organization = uuid('organizationId');
  const member = [organization, uuid('operatorId')];
  return {
    '/admin/v1/session': {
      post: {
        operationId: 'signIn',
        tags: ['Admin'],
        summary: 'Signs an operator in: sets the engage_session cookie and answers the session.',
        security: [],
        requestBody: body('AdminSignIn'),
        responses: {
          '200': json(
            'Signed in; `Set-Cookie: engage_session=…; HttpOnly; SameSite=Strict; Path=/`.',
            'AdminSession',
          ),
          ...problemResponses([
            'validation.request',
            'admin.sign_in_failed',
            'admin.too_many_sign_in_attempts',
          ]),
        },
      },
      get: {
        operationId: 'getSession',
        tags: ['Admin'],
        summary: "The cookie's session, with its CSRF token.",
        security: [{ sessionCookie: [] }],
        responses: {
          '200': json('OK', 'AdminSession'),
          ...problemResponses(['admin.unauthorized']),
        },
      },
      delete: {
        operationId: 'signOut',
        tags: ['Admin'],
        summary: 'Signs out: deletes the session and clears the cookie.',
        security: [{ sessionCookie: [] }],
        responses: { '204': { description: 'Signed out.' } },
      },
    },
    '/admin/v1/organizations/{organizationId}/operators': {
      get: {
        operationId: 'listOperators',
        tags: ['Admin'],
        summary: "The organization's operators and their roles (owner).",
        security: either,
        parameters: [organization],
        responses: { '200': json('OK', 'AdminOperatorList'), ...refusals },
      },
    },
    '/admin/v1/organizations/{organizationId}/invitations': {
      get: {
        operationId: 'listInvitations',
        tags: ['Admin'],
        summary: "The organization's pending invitations (owner).",
        security: either,
        parameters: [organization],
        responses: { '200': json('OK', 'AdminInvitationList'), ...refusals },
      },
      post: {
        operationId: 'inviteOperator',
        tags: ['Admin'],
        summary:
          'Invites an email with a role; the same answer whether or not an account has the email. ' +
          'It replaces a pending invitation of the email; the token is shown once (owner).',
        security: either,
        parameters: [organization],
        requestBody: body('AdminCreateInvitation'),
        responses: {
          '201': json('Invited.', 'AdminCreatedInvitation'),
          ...problemResponses([...REFUSALS, 'operator.already_member']),
        },
      },
    },
    '/admin/v1/organizations/{organizationId}/invitations/{invitationId}': {
      delete: {
        operationId: 'revokeInvitation',
        tags: ['Admin'],
        summary: 'Revokes a pending invitation (owner).',
        security: either,
        parameters: [organization, uuid('invitationId')],
        responses: {
          '204': { description: 'Revoked.' },
          ...problemResponses([...REFUSALS, 'invitation.not_found']),
        },
      },
    },
    '/admin/v1/invitations': {
      get: {
        operationId: 'listMyInvitations',
        tags: ['Admin'],
        summary: "The pending invitations addressed to the signed-in operator's email.",
        security: either,
        responses: { '200': json('OK', 'AdminInvitationList'), ...problemResponses(['admin.unauthorized']) },
      },
    },
    '/admin/v1/invitations/{invitationId}/accept': {
      post: {
        operationId: 'acceptInvitation',
        tags: ['Admin'],
        summary: "Accepts an invitation addressed to the signed-in operator's email: joins with its role.",
        security: either,
        parameters: [uuid('invitationId')],
        responses: {
          '200': json('Joined.', 'AdminMembership'),
          ...problemResponses([
            'validation.request',
            'admin.unauthorized',
            'admin.csrf_failed',
            'invitation.not_found',
            'operator.already_member',
          ]),
        },
      },
    },
    '/admin/v1/invitations/{invitationId}/decline': {
      post: {
        operationId: 'declineInvitation',
        tags: ['Admin'],
        summary: "Declines an invitation addressed to the signed-in operator's email.",
        security: either,
        parameters: [uuid('invitationId')],
        responses: {
          '204': { description: 'Declined.' },
          ...problemResponses([
            'validation.request',
            'admin.unauthorized',
            'admin.csrf_failed',
            'invitation.not_found',
          ]),
        },
      },
    },
    '/admin/v1/invitations/accept': {
      post: {
        operationId: 'acceptInvitationWithToken',
        tags: ['Admin'],
        summary:
          "Accepts an invitation with its token, without a session: with the account's password when " +
          'the email has an account, else creating the account with the password and name given.',
        security: [],
        requestBody: body('AdminAcceptInvitation'),
        responses: {
          '200': json('Joined; sign in with the email and password.', 'AdminMembership'),
          ...problemResponses([
            'validation.request',
            'invitation.not_found',
            'admin.sign_in_failed',
            'admin.too_many_sign_in_attempts',
            'operator.password_common',
            'operator.password_contains_email',
            'operator.password_repetitive',
            'operator.already_member',
            'invitation.concurrent_update',
          ]),
        },
      },
    },
    '/admin/v1/organizations/{organizationId}/operators/{operatorId}': {
      patch: {
        operationId: 'changeOperatorRole',
        tags: ['Admin'],
        summary: "Changes an operator's role (owner).",
        security: either,
        parameters: member,
        requestBody: body('AdminUpdateOperator'),
        responses: {
          '200': json('OK', 'AdminOperator'),
          ...problemResponses([...REFUSALS, 'operator.last_owner']),
        },
      },
      delete: {
        operationId: 'removeOperator',
        tags: ['Admin'],
        summary: 'Removes an operator from the organization (owner).',
        security: either,
        parameters: member,
        responses: {
          '204': { description: 'Removed.' },
          ...problemResponses([...REFUSALS, 'operator.last_owner']),
        },
      },
    },
    '/admin/v1/organizations/{organizationId}/audit-log': {
      get: {
        operationId: 'listAuditLog',
        tags: ['Admin'],
        summary: "A page of the organization's audit log, oldest first unless `order=newest` (admin).",
        security: either,
        parameters: [
          organization,
          ...pageParameters,
          {
            name: 'order',
            in: 'query',
            description: '`oldest` first (default) or `newest` first.',
            schema: { type: 'string', enum: ['oldest', 'newest'], default: 'oldest' },
          },
          {
            name: 'environmentId',
            in: 'query',
            description: 'Only the writes that named this environment.',
            schema: { type: 'string', format: 'uuid' },
          },
          {
            name: 'operatorEmail',
            in: 'query',
            description: 'Only the writes of the operator with this email (not case-sensitive).',
            schema: { type: 'string', format: 'email', maxLength: 254 },
          },
          {
            name: 'route',
            in: 'query',
            description:
              'Only the writes whose route, as registered and recorded (`/api-keys/:apiKeyId`), contains this text.',
            schema: { type: 'string', minLength: 1, maxLength: MAX_AUDIT_ROUTE_FILTER },
          },
          {
            name: 'from',
            in: 'query',
            description: 'Only the writes made at this time or later (RFC 3339, with its offset).',
            schema: { type: 'string', format: 'date-time' },
          },
          {
            name: 'to',
            in: 'query',
            description:
              'Only the writes made before this time (RFC 3339, with its offset); later than `from`.',
            schema: { type: 'string', format: 'date-time' },
          },
        ],
        responses: { '200': json('OK', 'AdminAuditLogPage'), ...refusals },
      },
    },
    '/admin/v1/environments/{environmentId}/definition/history': {
      get: {
        operationId: 'listDefinitionHistory',
        tags: ['Admin'],
        summary:
          "The environment file's applied versions, newest first: who, when and the difference (viewer).",
        security: either,
        parameters: [uuid('environmentId'), ...pageParameters],
        responses: {
          '200': json('OK', 'AdminAuditLogPage'),
          ...problemResponses([...REFUSALS, 'environment.not_found']),
        },
      },
    },
  };
}
