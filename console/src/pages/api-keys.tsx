import type { ApiKey, CreatedApiKey } from '@engage/contracts/http/admin.ts';
import { type FormEvent, useState } from 'react';
import { useParams } from 'react-router';
import { api, unwrap } from '../api/client.ts';
import { useConfirm } from '../components/confirm-dialog.tsx';
import { usePage } from '../components/pager.tsx';
import { Busy, ProblemMessage } from '../components/status.tsx';
import { useAction, useLoad } from '../components/use-call.ts';
import { useEnvironment } from '../components/use-environment.ts';
import { canWrite, useMembership } from '../session/session.tsx';

const when = (iso: string | null) =>
  iso ? `${new Date(iso).toLocaleString('en-GB', { timeZone: 'UTC' })} UTC` : '—';

/** An environment's API keys: create one (its secret shown once), see when each was last used, revoke. */
export function ApiKeysPage() {
  const { organizationId = '', environmentId = '' } = useParams();
  const membership = useMembership(organizationId);
  const confirm = useConfirm();
  const mayWrite = canWrite(membership, 'apiKeys');
  const environment = useEnvironment(organizationId, environmentId);
  const keys = useLoad(
    () =>
      unwrap(
        api.GET('/admin/v1/environments/{environmentId}/api-keys', { params: { path: { environmentId } } }),
      ),
    [environmentId],
  );
  const [created, setCreated] = useState<CreatedApiKey | null>(null);
  const [name, setName] = useState('');
  const create = useAction(async () => {
    const body = name.trim() ? { name: name.trim() } : {};
    const key = await unwrap(
      api.POST('/admin/v1/environments/{environmentId}/api-keys', {
        params: { path: { environmentId } },
        body,
      }),
    );
    setCreated(key);
    setName('');
    keys.reload();
  });
  const revoke = useAction(async (key: ApiKey) => {
    await unwrap(
      api.DELETE('/admin/v1/api-keys/{apiKeyId}', { params: { path: { apiKeyId: key.apiKeyId } } }),
    );
    keys.reload();
  });
  const sorted = [...(keys.data?.apiKeys ?? [])].sort((a, b) => b.createdAtUtc.localeCompare(a.createdAtUtc));
  const { rows, pager } = usePage(sorted);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.run();
  };

  return (
    <>
      <h1>API keys{environment.data ? ` · ${environment.data.label}` : ''}</h1>
      <ProblemMessage error={environment.error} />
      <p className="lead">
        Game servers send a key in the <code>Authorization</code> header of every <code>/v1</code> call. A
        revoked key is refused at once.
      </p>
      {mayWrite && (
        <form onSubmit={submit} className="card inline-form" aria-label="Create an API key">
          <label>
            Name (optional)
            <input value={name} onChange={(e) => setName(e.target.value)} maxLength={200} name="keyName" />
          </label>
          <button type="submit" className="primary" disabled={create.busy}>
            {create.busy ? 'Creating…' : 'Create API key'}
          </button>
        </form>
      )}
      <ProblemMessage error={create.error} />
      {created && <CreatedKey created={created} onDone={() => setCreated(null)} />}
      <ProblemMessage error={revoke.error} />
      {keys.loading && <Busy label="Loading the keys…" />}
      <ProblemMessage error={keys.error} />
      {keys.data && sorted.length === 0 && <p>No keys yet.</p>}
      {sorted.length > 0 && (
        <table>
          <caption className="visually-hidden">API keys</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Key id</th>
              <th scope="col">Created</th>
              <th scope="col">Last used</th>
              <th scope="col">State</th>
              {mayWrite && <th scope="col">Action</th>}
            </tr>
          </thead>
          <tbody>
            {rows.map((key) => (
              <tr key={key.apiKeyId}>
                <td>{key.name ?? <span className="muted">unnamed</span>}</td>
                <td>
                  <code>{key.publicId}</code>
                </td>
                <td>{when(key.createdAtUtc)}</td>
                <td>{when(key.lastUsedAtUtc)}</td>
                <td>{key.revokedAtUtc ? `Revoked ${when(key.revokedAtUtc)}` : 'Active'}</td>
                {mayWrite && (
                  <td>
                    {!key.revokedAtUtc && (
                      <button
                        type="button"
                        className="danger"
                        disabled={revoke.busy}
                        onClick={async () => {
                          const yes = await confirm({
                            question: `Revoke ${key.name ?? key.publicId}?`,
                            consequence: 'Calls with it are refused at once.',
                            confirmLabel: 'Revoke',
                            danger: true,
                          });
                          if (yes) revoke.run(key);
                        }}
                        aria-label={`Revoke ${key.name ?? key.publicId}`}
                      >
                        Revoke
                      </button>
                    )}
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {pager}
    </>
  );
}

/** The secret exists only in this answer: shown once, with a copy button. */
function CreatedKey({ created, onDone }: { created: CreatedApiKey; onDone: () => void }) {
  const [copied, setCopied] = useState(false);
  return (
    <section className="card secret" aria-labelledby="new-key-heading">
      <h2 id="new-key-heading">Your new key</h2>
      <p>Copy it now: it is shown only once.</p>
      <div className="secret-row">
        <output aria-label="New API key" data-testid="new-api-key">
          {created.apiKey}
        </output>
        <button
          type="button"
          onClick={async () => {
            await navigator.clipboard.writeText(created.apiKey);
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
