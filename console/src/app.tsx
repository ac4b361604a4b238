import { createBrowserRouter, Navigate, NavLink, Outlet, useLocation } from 'react-router';
import { RouterProvider } from 'react-router/dom';
import { ConfirmProvider } from './components/confirm-dialog.tsx';
import { Layout } from './components/layout.tsx';
import { Busy } from './components/status.tsx';
import { AcceptInvitationPage } from './pages/accept-invitation.tsx';
import { ApiKeysPage } from './pages/api-keys.tsx';
import { AuditLogPage } from './pages/audit-log.tsx';
import { ContentPage } from './pages/content.tsx';
import { DiscoveryPage } from './pages/discovery.tsx';
import { EventsPage } from './pages/events.tsx';
import { InvitationsPage } from './pages/invitations.tsx';
import { LeaderboardsPage } from './pages/leaderboards.tsx';
import { OperatorsPage } from './pages/operators.tsx';
import { OverviewPage } from './pages/overview.tsx';
import { PlayersPage } from './pages/players.tsx';
import { PromotionPage } from './pages/promotion.tsx';
import { SignInPage } from './pages/sign-in.tsx';
import { WebhooksPage } from './pages/webhooks.tsx';
import { SessionProvider, useSession } from './session/session.tsx';

/** Signed-in pages only: anyone else is sent to sign in, and back here afterwards. */
function RequireSession() {
  const { session } = useSession();
  const location = useLocation();
  if (session === undefined) return <Busy label="Checking your session…" />;
  if (session === null) return <Navigate to="/sign-in" replace state={{ from: location.pathname }} />;
  return <Outlet />;
}

/** The first organization the operator belongs to, or a word when there is none. */
function Home() {
  const { session } = useSession();
  const first = session?.memberships[0];
  if (first) return <Navigate to={`/organizations/${first.organizationId}`} replace />;
  return (
    <p>
      You are not a member of any organization yet: accept an owner's{' '}
      <NavLink to="/invitations">invitation</NavLink>, or ask an owner to invite you.
    </p>
  );
}

const router = createBrowserRouter(
  [
    { path: '/sign-in', element: <SignInPage /> },
    { path: '/accept-invitation', element: <AcceptInvitationPage /> },
    {
      element: <RequireSession />,
      children: [
        {
          element: <Layout />,
          children: [
            { index: true, element: <Home /> },
            { path: 'invitations', element: <InvitationsPage /> },
            { path: 'organizations/:organizationId', element: <OverviewPage /> },
            {
              path: 'organizations/:organizationId/environments/:environmentId/api-keys',
              element: <ApiKeysPage />,
            },
            {
              path: 'organizations/:organizationId/environments/:environmentId/discovery',
              element: <DiscoveryPage />,
            },
            {
              path: 'organizations/:organizationId/environments/:environmentId/players',
              element: <PlayersPage />,
            },
            {
              path: 'organizations/:organizationId/environments/:environmentId/leaderboards',
              element: <LeaderboardsPage />,
            },
            {
              path: 'organizations/:organizationId/environments/:environmentId/content',
              element: <ContentPage />,
            },
            {
              path: 'organizations/:organizationId/projects/:projectId/promotion',
              element: <PromotionPage />,
            },
            { path: 'organizations/:organizationId/audit-log', element: <AuditLogPage /> },
            { path: 'organizations/:organizationId/operators', element: <OperatorsPage /> },
            {
              path: 'organizations/:organizationId/environments/:environmentId/events',
              element: <EventsPage />,
            },
            {
              path: 'organizations/:organizationId/environments/:environmentId/webhooks',
              element: <WebhooksPage />,
            },
            { path: '*', element: <p>No such page.</p> },
          ],
        },
      ],
    },
  ],
  { basename: '/console' },
);

export function App() {
  return (
    <SessionProvider>
      <ConfirmProvider>
        <RouterProvider router={router} />
      </ConfirmProvider>
    </SessionProvider>
  );
}
