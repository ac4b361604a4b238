import { NavLink, Outlet, useNavigate, useParams } from 'react-router';
import { useSession } from '../session/session.tsx';
import { ProblemMessage } from './status.tsx';
import { useAction } from './use-call.ts';

/** Every signed-in page: a skip link, the organization's navigation, the operator and sign-out. */
export function Layout() {
  const { session, signOut } = useSession();
  const { organizationId } = useParams();
  const navigate = useNavigate();
  const leave = useAction(async () => {
    await signOut();
    navigate('/sign-in');
  });
  const membership = session?.memberships.find((m) => m.organizationId === organizationId);
  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="top-bar">
        <span className="brand">engage console</span>
        {membership && (
          <nav aria-label="Organization">
            <NavLink to={`/organizations/${membership.organizationId}`} end>
              Overview
            </NavLink>
            {(membership.role === 'owner' || membership.role === 'admin') && (
              <NavLink to={`/organizations/${membership.organizationId}/audit-log`}>Audit log</NavLink>
            )}
            {membership.role === 'owner' && (
              <NavLink to={`/organizations/${membership.organizationId}/operators`}>Operators</NavLink>
            )}
          </nav>
        )}
        <div className="operator">
          <NavLink to="/invitations">Invitations</NavLink>
          {session && (
            <span>
              {session.operator.displayName}
              {membership && <span className="role"> · {membership.role}</span>}
            </span>
          )}
          <button type="button" onClick={() => leave.run()} disabled={leave.busy}>
            {leave.busy ? 'Signing out…' : 'Sign out'}
          </button>
        </div>
      </header>
      <ProblemMessage error={leave.error} />
      <main id="main" tabIndex={-1}>
        <Outlet />
      </main>
    </>
  );
}
