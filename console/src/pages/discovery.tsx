import type { EnvironmentDiff } from '@engage/contracts/environment-file.ts';
import { useState } from 'react';
import { useParams } from 'react-router';
import { api, unwrap } from '../api/client.ts';
import { DiffView } from '../components/diff-view.tsx';
import { EventDefinitions } from '../components/event-definitions.tsx';
import { PreviewedChange } from '../components/previewed-change.tsx';
import { Busy, ProblemMessage } from '../components/status.tsx';
import { useAction } from '../components/use-call.ts';
import { useEnvironment } from '../components/use-environment.ts';
import { canWrite, useMembership } from '../session/session.tsx';

/**
 * The discovery switch: with it on, an unknown event key or property is defined from its first
 * occurrence instead of refused. The change is shown as a dry run before it is applied.
 */
export function DiscoveryPage() {
  const { organizationId = '', environmentId = '' } = useParams();
  const mayWrite = canWrite(useMembership(organizationId), 'discovery');
  const environment = useEnvironment(organizationId, environmentId);
  const [preview, setPreview] = useState<{ discovery: boolean; diff: EnvironmentDiff } | null>(null);
  const [applied, setApplied] = useState<EnvironmentDiff | null>(null);
  const put = (discovery: boolean, dryRun: boolean) =>
    unwrap(
      api.PUT('/admin/v1/environments/{environmentId}/definition', {
        params: { path: { environmentId }, query: { dryRun } },
        body: { discovery },
      }),
    );
  const previewChange = useAction(async (discovery: boolean) => {
    setApplied(null);
    setPreview({ discovery, diff: await put(discovery, true) });
  });
  const apply = useAction(async (discovery: boolean) => {
    setApplied(await put(discovery, false));
    setPreview(null);
    environment.reload();
  });

  if (environment.loading && !environment.data) return <Busy label="Loading the environment…" />;
  if (!environment.data) return <ProblemMessage error={environment.error} />;
  const { discovery } = environment.data.environment;
  return (
    <>
      <h1>Discovery · {environment.data.label}</h1>
      <p className="lead">
        Off, an event key or property the environment does not define is refused per item (
        <code>event.not_found</code>, <code>event.unknown_property</code>). On, it is defined from its first
        occurrence, typed by its JSON kind.
      </p>
      <p className="card">
        Discovery is <strong>{discovery ? 'on' : 'off'}</strong>.
      </p>
      {mayWrite && (
        <button type="button" onClick={() => previewChange.run(!discovery)} disabled={previewChange.busy}>
          {previewChange.busy ? 'Checking…' : discovery ? 'Switch discovery off…' : 'Switch discovery on…'}
        </button>
      )}
      <ProblemMessage error={previewChange.error} />
      {preview && (
        <PreviewedChange
          diff={preview.diff}
          applying={apply.busy}
          onApply={() => apply.run(preview.discovery)}
          onCancel={() => setPreview(null)}
        />
      )}
      <ProblemMessage error={apply.error} />
      {applied && <DiffView diff={applied} />}
      <EventDefinitions organizationId={organizationId} environmentId={environmentId} />
    </>
  );
}
