import { type FormEvent, useState } from 'react';
import { useParams } from 'react-router';
import { api, unwrap } from '../api/client.ts';
import type { components } from '../api/schema.ts';
import { whenUtc } from '../components/audit-entries.tsx';
import { useConfirm } from '../components/confirm-dialog.tsx';
import { Busy, ProblemMessage } from '../components/status.tsx';
import { useAction, useLoad } from '../components/use-call.ts';
import { useSession } from '../session/session.tsx';

type Operator = components['schemas']['AdminOperator'];
type Role = Operator['role'];
type CreatedInvitation = components['schemas']['AdminCreatedInvitation'];

const ROLES: readonly Role[] = ['owner', 'admin', 'designer', 'support', 'viewer'];

/** Where an invitee accepts: the token rides in the fragment, which the browser never sends. */
export const acceptLinkOf = (token: string) =>
  `${window.location.origin}/console/accept-invitation#${encodeURIComponent(token)}`;

/**
 * The organization's operators (owners only): invite an email with a role, change a role, remove an
 * operator, revoke a pending invitation. The gateway keeps at least one owner.
 */
export function OperatorsPage() {
  const { organizationId = '' } = useParams();
  const { session, refresh } = useSession();
  const confirm = useConfirm();
  const path = { params: { path: { organizationId } } };
  const operators = useLoad(
    () => unwrap(api.GET('/admin/v1/organizations/{organizationId}/operators', path)),
    [organizationId],
  );
  const invitations = useLoad(
    () => unwrap(api.GET('/admin/v1/organizations/{organizationId}/invitations', path)),
    [organizationId],
  );
  const [invited, setInvited] = useState<CreatedInvitation | null>(null);

  const changeRole = useAction(async (operator: Operator, role: Role) => {
    await unwrap(
      api.PATCH('/admin/v1/organizations/{organizationId}/operators/{operatorId}', {
        params: { path: { organizationId, operatorId: operator.operatorId } },
        body: { role },
      }),
    );
    operators.reload();
    // One's own role shapes what the console shows.
    if (operator.operatorId === session?.operator.id) await refresh();
  });
  const remove = useAction(async (operator: Operator) => {
    const yes = await confirm({
      question: `Remove ${operator.email} from the organization?`,
      consequence: 'They can no longer sign in to it; an owner may invite them again.',
      confirmLabel: 'Remove',
      danger: true,
    });
    if (!yes) return;
    await unwrap(
      api.DELETE('/admin/v1/organizations/{organizationId}/operators/{operatorId}', {
        params: { path: { organizationId, operatorId: operator.operatorId } },
      }),
    );
    operators.reload();
  });
  const revoke = useAction(async (invitationId: string, email: string) => {
    const yes = await confirm({
      question: `Revoke the invitation of ${email}?`,
      consequence: 'Its link no longer joins the organization.',
      confirmLabel: 'Revoke',
      danger: true,
    });
    if (!yes) return;
    await unwrap(
      api.DELETE('/admin/v1/organizations/{organizationId}/invitations/{invitationId}', {
        params: { path: { organizationId, invitationId } },
      }),
    );
    if (invited?.invitationId === invitationId) setInvited(null);
    invitations.reload();
  });

  return (
    <>
      <h1>Operators</h1>
      <p className="lead">
        Who may sign in to this organization, and with which role. An operator joins by accepting an
        invitation.
      </p>
      {operators.loading && <Busy label="Loading the operators…" />}
      <ProblemMessage error={operators.error ?? changeRole.error ?? remove.error} />
      {operators.data && (
        <table>
          <caption className="visually-hidden">Operators</caption>
          <thead>
            <tr>
              <th scope="col">Operator</th>
              <th scope="col">Joined</th>
              <th scope="col">Role</th>
              <th scope="col">Remove</th>
            </tr>
          </thead>
          <tbody>
            {operators.data.operators.map((operator) => (
              <tr key={operator.operatorId}>
                <td>
                  {operator.displayName}
                  <br />
                  <span className="muted">{operator.email}</span>
                </td>
                <td>{whenUtc(operator.createdAtUtc)}</td>
                <td>
                  <RoleChoice
                    key={operator.role}
                    operator={operator}
                    busy={changeRole.busy}
                    onChange={(role) => changeRole.run(operator, role)}
                  />
                </td>
                <td>
                  <button
                    type="button"
                    className="danger"
                    disabled={remove.busy}
                    onClick={() => remove.run(operator)}
                    aria-label={`Remove ${operator.email}`}
                  >
                    Remove
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <Invite
        organizationId={organizationId}
        onInvited={(invitation) => {
          setInvited(invitation);
          invitations.reload();
        }}
      />
      {invited && <InvitationLink invitation={invited} onDone={() => setInvited(null)} />}
      <section aria-labelledby="pending-heading">
        <h2 id="pending-heading">Pending invitations</h2>
        {invitations.loading && <Busy label="Loading the invitations…" />}
        <ProblemMessage error={invitations.error ?? revoke.error} />
        {invitations.data && invitations.data.invitations.length === 0 && <p>No invitation is pending.</p>}
        {invitations.data && invitations.data.invitations.length > 0 && (
          <table>
            <caption className="visually-hidden">Pending invitations</caption>
            <thead>
              <tr>
                <th scope="col">Email</th>
                <th scope="col">Role</th>
                <th scope="col">Lapses</th>
                <th scope="col">Revoke</th>
              </tr>
            </thead>
            <tbody>
              {invitations.data.invitations.map((invitation) => (
                <tr key={invitation.invitationId}>
                  <td>{invitation.email}</td>
                  <td>{invitation.role}</td>
                  <td>{whenUtc(invitation.expiresAtUtc)}</td>
                  <td>
                    <button
                      type="button"
                      disabled={revoke.busy}
                      onClick={() => revoke.run(invitation.invitationId, invitation.email)}
                      aria-label={`Revoke the invitation of ${invitation.email}`}
                    >
                      Revoke
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
    </>
  );
}

/** A role picked from the list, applied with its own button (a slip of the list changes nothing). */
function RoleChoice(props: { operator: Operator; busy: boolean; onChange: (role: Role) => void }) {
  const [role, setRole] = useState<Role>(props.operator.role);
  return (
    <span className="inline-form">
      <select
        aria-label={`Role of ${props.operator.email}`}
        value={role}
        onChange={(e) => setRole(e.target.value as Role)}
      >
        {ROLES.map((r) => (
          <option key={r} value={r}>
            {r}
          </option>
        ))}
      </select>
      <button
        type="button"
        disabled={props.busy || role === props.operator.role}
        onClick={() => props.onChange(role)}
        aria-label={`Change role of ${props.operator.email}`}
      >
        Change role
      </button>
    </span>
  );
}

function Invite(props: { organizationId: string; onInvited: (invitation: CreatedInvitation) => void }) {
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('viewer');
  const invite = useAction(async () => {
    const invitation = await unwrap(
      api.POST('/admin/v1/organizations/{organizationId}/invitations', {
        params: { path: { organizationId: props.organizationId } },
        body: { email, role },
      }),
    );
    setEmail('');
    props.onInvited(invitation);
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    invite.run();
  };
  return (
    <section aria-labelledby="invite-heading">
      <h2 id="invite-heading">Invite an operator</h2>
      <form className="card inline-form" onSubmit={submit}>
        <label>
          Email
          <input type="email" required value={email} onChange={(e) => setEmail(e.target.value)} />
        </label>
        <label>
          Role
          <select value={role} onChange={(e) => setRole(e.target.value as Role)}>
            {ROLES.map((r) => (
              <option key={r} value={r}>
                {r}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" className="primary" disabled={invite.busy}>
          {invite.busy ? 'Inviting…' : 'Invite'}
        </button>
      </form>
      <ProblemMessage error={invite.error} />
    </section>
  );
}

/** The invitation's link holds its token, which exists only in this answer: shown once. */
function InvitationLink({ invitation, onDone }: { invitation: CreatedInvitation; onDone: () => void }) {
  const [copied, setCopied] = useState(false);
  const link = acceptLinkOf(invitation.token);
  return (
    <section className="card secret" aria-labelledby="invitation-link-heading">
      <h2 id="invitation-link-heading">Invitation link for {invitation.email}</h2>
      <p>
        Send it to {invitation.email} yourself: it is shown only once, and joins the organization as{' '}
        {invitation.role} until {whenUtc(invitation.expiresAtUtc)}. An operator who already has an account may
        also accept under <strong>Invitations</strong> once signed in.
      </p>
      <div className="secret-row">
        <output aria-label="Invitation link" data-testid="invitation-link">
          {link}
        </output>
        <button
          type="button"
          onClick={async () => {
            await navigator.clipboard.writeText(link);
            setCopied(true);
          }}
        >
          {copied ? 'Copied' : 'Copy'}
        </button>
      </div>
      <button type="button" onClick={onDone}>
        Done
      </button>
    </section>
  );
}
