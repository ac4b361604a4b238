import { useNavigate } from 'react-router';
import { api, unwrap } from '../api/client.ts';
import type { components } from '../api/schema.ts';
import { whenUtc } from '../components/audit-entries.tsx';
import { Busy, ProblemMessage } from '../components/status.tsx';
import { useAction, useLoad } from '../components/use-call.ts';
import { useSession } from '../session/session.tsx';

type Invitation = components['schemas']['AdminInvitation'];

/** The invitations addressed to the signed-in operator's email: joining an organization takes accepting one. */
export function InvitationsPage() {
  const { refresh } = useSession();
  const navigate = useNavigate();
  const invitations = useLoad(() => unwrap(api.GET('/admin/v1/invitations')), []);
  const accept = useAction(async (invitation: Invitation) => {
    const path = { invitationId: invitation.invitationId };
    await unwrap(api.POST('/admin/v1/invitations/{invitationId}/accept', { params: { path } }));
    await refresh();
    navigate(`/organizations/${invitation.organizationId}`);
  });
  const decline = useAction(async (invitation: Invitation) => {
    const path = { invitationId: invitation.invitationId };
    await unwrap(api.POST('/admin/v1/invitations/{invitationId}/decline', { params: { path } }));
    invitations.reload();
  });
  const pending = invitations.data?.invitations ?? [];
  return (
    <>
      <h1>Invitations</h1>
      <p className="lead">
        An owner of an organization invited your email. You join it, with the role named, only if you accept.
      </p>
      {invitations.loading && <Busy label="Loading your invitations…" />}
      <ProblemMessage error={invitations.error ?? accept.error ?? decline.error} />
      {invitations.data && pending.length === 0 && <p>No invitations are waiting for you.</p>}
      {pending.length > 0 && (
        <table>
          <caption className="visually-hidden">Invitations waiting for you</caption>
          <thead>
            <tr>
              <th scope="col">Organization</th>
              <th scope="col">Role</th>
              <th scope="col">Lapses</th>
              <th scope="col">Answer</th>
            </tr>
          </thead>
          <tbody>
            {pending.map((invitation) => (
              <tr key={invitation.invitationId}>
                <td>{invitation.organizationName}</td>
                <td>{invitation.role}</td>
                <td>{whenUtc(invitation.expiresAtUtc)}</td>
                <td>
                  <button
                    type="button"
                    aria-label={`Accept the invitation to ${invitation.organizationName}`}
                    disabled={accept.busy || decline.busy}
                    onClick={() => accept.run(invitation)}
                  >
                    Accept
                  </button>{' '}
                  <button
                    type="button"
                    aria-label={`Decline the invitation to ${invitation.organizationName}`}
                    disabled={accept.busy || decline.busy}
                    onClick={() => decline.run(invitation)}
                  >
                    Decline
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}
