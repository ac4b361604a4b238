import type { EnvironmentDiff, EnvironmentFileInput } from '@engage/contracts/environment-file.ts';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { api, unwrap } from '../api/client.ts';
import { useConfirm } from '../components/confirm-dialog.tsx';
import { DiffView } from '../components/diff-view.tsx';
import { RefusedPlaces, refusedPlaces } from '../components/refused-places.tsx';
import { Busy, ProblemMessage } from '../components/status.tsx';
import { useAction, useLoad } from '../components/use-call.ts';
import { canWrite, useMembership } from '../session/session.tsx';

/**
 * The Sandbox's content as Live's: the Sandbox's file is read once, dry-run against Live to show
 * the difference, and that same file is applied to Live on confirmation. Live keeps its own
 * `discovery` switch (an admin's decision, per environment).
 */
export function PromotionPage() {
  const { organizationId = '', projectId = '' } = useParams();
  const mayWrite = canWrite(useMembership(organizationId), 'definition');
  const confirm = useConfirm();
  const project = useLoad(
    () => unwrap(api.GET('/admin/v1/projects/{projectId}', { params: { path: { projectId } } })),
    [projectId],
  );
  const [planned, setPlanned] = useState<{ file: EnvironmentFileInput; diff: EnvironmentDiff } | null>(null);
  const [applied, setApplied] = useState<EnvironmentDiff | null>(null);
  const put = (environmentId: string, body: EnvironmentFileInput, dryRun: boolean) =>
    unwrap(
      api.PUT('/admin/v1/environments/{environmentId}/definition', {
        params: { path: { environmentId }, query: { dryRun } },
        body,
      }),
    );
  const compare = useAction(async (sandboxId: string, liveId: string) => {
    setApplied(null);
    setPlanned(null);
    const sandbox = await unwrap(
      api.GET('/admin/v1/environments/{environmentId}/definition', {
        params: { path: { environmentId: sandboxId } },
      }),
    );
    const { discovery: _sandboxOwn, ...file } = sandbox;
    setPlanned({ file, diff: await put(liveId, file, true) });
  });
  const apply = useAction(async (liveId: string, file: EnvironmentFileInput) => {
    setApplied(await put(liveId, file, false));
    setPlanned(null);
  });

  if (project.loading) return <Busy label="Loading the project…" />;
  if (!project.data) return <ProblemMessage error={project.error} />;
  const { sandbox, live, name } = project.data;
  const places = refusedPlaces(compare.error ?? apply.error);
  const environments = `/organizations/${organizationId}/environments`;
  return (
    <>
      <h1>Promote Sandbox to Live · {name}</h1>
      <p className="lead">
        Makes Live's content what the Sandbox's is now: every section of the Sandbox's environment file but{' '}
        <code>discovery</code>, which each environment keeps. First see the difference it would make to Live;
        nothing changes until you apply it.{' '}
        <Link to={`${environments}/${sandbox.environmentId}/content`}>Sandbox content</Link> ·{' '}
        <Link to={`${environments}/${live.environmentId}/content`}>Live content</Link>
      </p>
      {!mayWrite && (
        <p className="card" role="note">
          Your role may see the difference, not apply it.
        </p>
      )}
      <div className="actions">
        <button
          type="button"
          onClick={() => compare.run(sandbox.environmentId, live.environmentId)}
          disabled={compare.busy || apply.busy}
        >
          {compare.busy ? 'Comparing…' : 'Show the difference'}
        </button>
      </div>
      <ProblemMessage error={compare.error} />
      <RefusedPlaces places={places} />
      {planned && (
        <>
          <DiffView diff={planned.diff} />
          {mayWrite && planned.diff.changed && (
            <div className="actions">
              <button
                type="button"
                className="primary"
                disabled={apply.busy}
                onClick={async () => {
                  const yes = await confirm({
                    question: `Apply the Sandbox's content to ${name} Live?`,
                    consequence: 'Players see it at once.',
                    confirmLabel: 'Apply to Live',
                  });
                  if (yes) apply.run(live.environmentId, planned.file);
                }}
              >
                {apply.busy ? 'Applying…' : 'Apply to Live'}
              </button>
              <button type="button" onClick={() => setPlanned(null)}>
                Cancel
              </button>
            </div>
          )}
        </>
      )}
      <ProblemMessage error={apply.error} />
      {applied && <DiffView diff={applied} />}
    </>
  );
}
