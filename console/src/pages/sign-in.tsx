import { type FormEvent, useState } from 'react';
import { Navigate, useLocation } from 'react-router';
import { ProblemMessage } from '../components/status.tsx';
import { useAction } from '../components/use-call.ts';
import { useSession } from '../session/session.tsx';

export function SignInPage() {
  const { session, signIn } = useSession();
  const location = useLocation();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const attempt = useAction(signIn);
  const from = (location.state as { from?: string } | null)?.from ?? '/';

  if (session) return <Navigate to={from} replace />;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    // Signed in, the session changes and the page redirects itself.
    await attempt.run(email, password);
  };

  return (
    <main id="main" className="sign-in">
      <h1>Sign in to engage</h1>
      <form onSubmit={submit} className="card stack">
        <label>
          Email
          <input
            type="email"
            name="email"
            autoComplete="username"
            required
            value={email}
            onChange={(e) => setEmail(e.target.value)}
          />
        </label>
        <label>
          Password
          <input
            type="password"
            name="password"
            autoComplete="current-password"
            required
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
        </label>
        <ProblemMessage error={attempt.error} />
        <button type="submit" className="primary" disabled={attempt.busy}>
          {attempt.busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
    </main>
  );
}
