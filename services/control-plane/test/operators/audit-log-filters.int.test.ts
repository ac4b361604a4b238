import type { AuditEntry } from '@engage/contracts/http/operators.ts';
import { createTenant, startStack, TEST_ADMIN_TOKEN, type Tenant, type TestStack } from '@engage/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asAdminToken, type Console, operatorWithRole } from './support.ts';

/** The audit log's filters: by operator, by route and by time, together with its pages. */

let stack: TestStack;
let tenant: Tenant;
let owner: Console;
let admin: Console;

beforeAll(async () => {
  stack = await startStack({ services: ['gateway'] });
  tenant = await createTenant(stack.controlPlaneUrl, TEST_ADMIN_TOKEN);
  owner = await operatorWithRole(stack.controlPlaneUrl, tenant.organizationId, 'owner');
  admin = await operatorWithRole(stack.controlPlaneUrl, tenant.organizationId, 'admin');
  // Two writes by each operator, the owner's first.
  for (const who of [owner, admin]) {
    for (const name of ['first', 'second']) {
      const created = await who.call('POST', `/environments/${tenant.sandbox.environmentId}/api-keys`, {
        name: `${name} of ${who.session.operator.email}`,
      });
      expect(created.status).toBe(201);
    }
  }
}, 120_000);

afterAll(() => stack?.stop());

const auditPath = (query: string) => `/organizations/${tenant.organizationId}/audit-log?${query}`;

/** Every entry the filter lets through, page by page (two entries a page). */
async function filtered(filter: Record<string, string>): Promise<AuditEntry[]> {
  const entries: AuditEntry[] = [];
  let after: string | null = null;
  do {
    const query = new URLSearchParams({ ...filter, limit: '2', ...(after ? { after } : {}) });
    const page = await asAdminToken(stack.controlPlaneUrl, 'GET', auditPath(query.toString()));
    expect(page.status, JSON.stringify(page.body)).toBe(200);
    entries.push(...page.body.entries);
    after = page.body.nextCursor;
  } while (after);
  return entries;
}

describe('audit log filters', () => {
  it('lists only the writes of one operator, by email in any case', async () => {
    const email = admin.session.operator.email;
    const entries = await filtered({ operatorEmail: email.toUpperCase() });
    expect(entries.map((e) => `${e.method} ${e.route}`)).toEqual([
      'POST /invitations/accept',
      'POST /environments/:environmentId/api-keys',
      'POST /environments/:environmentId/api-keys',
    ]);
    expect(entries.every((e) => e.actor.email === email)).toBe(true);
  });

  it('lists only the writes whose route contains the text, newest first when asked', async () => {
    const entries = await filtered({ route: '/api-keys', order: 'newest' });
    // The tenant's own two keys, then the four made above, newest first.
    expect(entries).toHaveLength(6);
    expect(entries.every((e) => e.route === '/environments/:environmentId/api-keys')).toBe(true);
    expect(entries[0]!.actor.email).toBe(admin.session.operator.email);
    expect((await filtered({ route: 'no-such-route' })).length).toBe(0);
  });

  it('lists only the writes from a time and before another', async () => {
    const keys = await filtered({ route: '/api-keys', operatorEmail: owner.session.operator.email });
    expect(keys).toHaveLength(2);
    const [first, second] = keys as [AuditEntry, AuditEntry];
    // From the owner's second key (inclusive) to just after it: that key alone.
    const justAfter = new Date(Date.parse(second.atUtc) + 1).toISOString();
    const between = await filtered({ from: second.atUtc, to: justAfter });
    expect(between.map((e) => e.auditId)).toEqual([second.auditId]);
    // Before the owner's first key: not it, nor anything after it.
    const before = await filtered({ to: first.atUtc });
    expect(before.map((e) => e.auditId)).not.toContain(first.auditId);
    expect(before.every((e) => Date.parse(e.atUtc) < Date.parse(first.atUtc))).toBe(true);
    // An offset other than Z names the same instant.
    const offset = second.atUtc.replace('Z', '+00:00');
    expect((await filtered({ from: offset, to: justAfter })).map((e) => e.auditId)).toEqual([second.auditId]);
  });

  it('refuses a bad filter with a problem naming each bad field', async () => {
    const refused = await asAdminToken(
      stack.controlPlaneUrl,
      'GET',
      auditPath('operatorEmail=not-an-email&from=yesterday&route='),
    );
    expect(refused.status).toBe(400);
    expect(refused.headers.get('content-type')).toContain('application/problem+json');
    expect(refused.body.code).toMatch(/^validation\./);
    expect(refused.body.errors.map((e: { code: string }) => e.code).sort()).toEqual([
      'validation.from',
      'validation.operator_email',
      'validation.route',
    ]);

    const backwards = await asAdminToken(
      stack.controlPlaneUrl,
      'GET',
      auditPath('from=2026-01-02T00:00:00Z&to=2026-01-01T00:00:00Z'),
    );
    expect(backwards.status).toBe(400);
    expect(backwards.body.errors).toEqual([
      expect.objectContaining({
        code: 'validation.to',
        message: 'to must be later than from',
        meta: expect.objectContaining({ path: 'to' }),
      }),
    ]);
  });
});
