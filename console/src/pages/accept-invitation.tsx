import { type FormEvent, useState } from 'react';
import { Link, useLocation } from 'react-router';
import { api, unwrap } from '../api/client.ts';
import type { components } from '../api/schema.ts';
import { ProblemMessage } from '../components/status.tsx';
import { useAction } from '../components/use-call.ts';

type Membership = components['schemas']['AdminMembership'];

/**
 * An invitation's link (`/accept-invitation#<token>`), opened by the invitee without a session: a
 * new account chooses its name and password here; an existing one confirms with its password.
 */
export function AcceptInvitationPage() {
  const token = decodeURIComponent(useLocation().hash.slice(1));
  const [displayName, setDisplayName] = useState('');
  const [password, setPassword] = useState('');
  const [joined, setJoined] = useState<Membership | null>(null);
  const accept = useAction(async () => {
    const body = { token, password, ...(displayName.trim() ? { displayName: displayName.trim() } : {}) };
    setJoined(await unwrap(api.POST('/admin/v1/invitations/accept', { body })));
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    accept.run();
  };

  return (
    <main id="main" className="sign-in">
      <h1>Accept an invitation</h1>
      {!token && <p>This link holds no invitation: ask the owner who invited you for the whole link.</p>}
      {joined && (
        <div className="card" role="status">
          <p>
            You joined {joined.organizationName} as {joined.role}.
          </p>
          <Link to="/sign-in">Sign in</Link>
        </div>
      )}
      {token && !joined && (
        <form onSubmit={submit} className="card stack">
          <p>
            A new account chooses its name and a password of at least 12 characters; an account that exists
            enters its password.
          </p>
          <label>
            Your name (for a new account)
            <input
              name="displayName"
              autoComplete="name"
              value={displayName}
              onChange={(e) => setDisplayName(e.target.value)}
            />
          </label>
          <label>
            Password
            <input
              type="password"
              name="password"
              autoComplete="new-password"
              required
              minLength={12}
              value={password}
              onChange={(e) => setPassword(e.target.value)}
            />
          </label>
          <ProblemMessage error={accept.error} />
          <button type="submit" className="primary" disabled={accept.busy}>
            {accept.busy ? 'Accepting…' : 'Accept and join'}
          </button>
        </form>
      )}
    </main>
  );
}
