import { request } from 'node:http';
import type { Role, Session } from '@engage/contracts/http/operators.ts';
import { TEST_ADMIN_TOKEN } from '@engage/testkit';

/** A signed-in console: the session cookie and CSRF token, as a browser would hold them. */
export interface Console {
  cookie: string;
  session: Session;
  call(
    method: string,
    path: string,
    body?: unknown,
    options?: { csrf?: boolean; idempotencyKey?: string },
  ): Promise<Answer>;
}

export interface Answer {
  status: number;
  headers: Headers;
  // biome-ignore lint/suspicious/noExplicitAny: the tests read answers of every admin route's shape
  body: any;
}

export async function call(
  url: string,
  method: string,
  path: string,
  options: { body?: unknown; headers?: Record<string, string> } = {},
): Promise<Answer> {
  const response = await fetch(`${url}/admin/v1${path}`, {
    method,
    headers: {
      ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...options.headers,
    },
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined };
}

/**
 * Signs in from a loopback address of the caller's choosing (127.0.0.2, ...), as a client at
 * another address: the gateway throttles failed sign-ins per address.
 */
export function signInFrom(url: string, localAddress: string, body: { email: string; password: string }) {
  const text = JSON.stringify(body);
  return new Promise<Answer>((resolve, reject) => {
    const sent = request(
      `${url}/admin/v1/session`,
      { method: 'POST', localAddress, headers: { 'content-type': 'application/json' } },
      (response) => {
        let answer = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          answer += chunk;
        });
        response.on('end', () => {
          const headers = new Headers();
          for (const [name, value] of Object.entries(response.headers)) {
            for (const one of [value ?? []].flat()) headers.append(name, one);
          }
          resolve({ status: response.statusCode!, headers, body: answer ? JSON.parse(answer) : undefined });
        });
      },
    );
    sent.on('error', reject);
    sent.end(text);
  });
}

export const asAdminToken = (url: string, method: string, path: string, body?: unknown) =>
  call(url, method, path, { body, headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` } });

export async function signIn(url: string, email: string, password: string): Promise<Console> {
  const answer = await call(url, 'POST', '/session', { body: { email, password } });
  if (answer.status !== 200)
    throw new Error(`sign-in answered ${answer.status} ${JSON.stringify(answer.body)}`);
  const cookie = answer.headers.getSetCookie()[0]!.split(';')[0]!;
  const session = answer.body as Session;
  return {
    cookie,
    session,
    call: (method, path, body, options = {}) =>
      call(url, method, path, {
        body,
        headers: {
          cookie,
          ...(options.csrf === false ? {} : { 'x-csrf-token': session.csrfToken }),
          ...(options.idempotencyKey === undefined ? {} : { 'idempotency-key': options.idempotencyKey }),
        },
      }),
  };
}

export const PASSWORD = 'correct horse battery staple';

/**
 * Makes an operator a member the only way there is: an invitation (here sent with the admin token)
 * accepted with its token, which creates the account with `password` when the email has none.
 */
export async function joinByInvitation(
  url: string,
  organizationId: string,
  operator: { email: string; role: Role; password: string },
): Promise<void> {
  const invited = await asAdminToken(url, 'POST', `/organizations/${organizationId}/invitations`, {
    email: operator.email,
    role: operator.role,
  });
  if (invited.status !== 201) throw new Error(`invitation answered ${invited.status}`);
  const accepted = await call(url, 'POST', '/invitations/accept', {
    body: { token: invited.body.token, password: operator.password },
  });
  if (accepted.status !== 200)
    throw new Error(`accepting answered ${accepted.status} ${JSON.stringify(accepted.body)}`);
}

/** Adds an operator with `role` to the organization (invited by the admin token) and signs it in. */
export async function operatorWithRole(url: string, organizationId: string, role: Role): Promise<Console> {
  const email = `${role}-${crypto.randomUUID()}@example.test`;
  await joinByInvitation(url, organizationId, { email, role, password: PASSWORD });
  return signIn(url, email, PASSWORD);
}
