import type { EnvironmentDiff, EnvironmentFileInput } from '@engage/contracts/environment-file.ts';
import { lazy, Suspense, useState } from 'react';
import { Link, useParams } from 'react-router';
import { api, unwrap } from '../api/client.ts';
import { ContentForms } from '../components/content-forms.tsx';
import { DefinitionHistory } from '../components/definition-history.tsx';
import { DiffView } from '../components/diff-view.tsx';
import { RefusedPlaces, refusedPlaces } from '../components/refused-places.tsx';
import { Busy, ProblemMessage } from '../components/status.tsx';
import { useAction, useLoad } from '../components/use-call.ts';
import { useEnvironment } from '../components/use-environment.ts';
import { canWrite, useMembership } from '../session/session.tsx';

const JsonSchemaEditor = lazy(() => import('../components/json-schema-editor.tsx'));

const asText = (file: unknown) => `${JSON.stringify(file, null, 2)}\n`;

/** The text as a file, or a problem saying where it is not JSON (nothing is sent then). */
function parseFile(text: string): EnvironmentFileInput {
  try {
    return JSON.parse(text) as EnvironmentFileInput;
  } catch (error) {
    throw new Error(`The text is not JSON: ${(error as Error).message}`);
  }
}

/**
 * An environment's content (missions, shop, leaderboards, streaks, events…) as its environment file
 * in JSON, edited against the file's JSON Schema. Preview runs the dry run and shows the
 * difference; Apply sends exactly the text previewed. Below, the versions applied so far.
 */
export function ContentPage() {
  const { organizationId = '', environmentId = '' } = useParams();
  const mayWrite = canWrite(useMembership(organizationId), 'definition');
  const environment = useEnvironment(organizationId, environmentId);
  const schema = useLoad(() => unwrap(api.GET('/admin/v1/schemas/environment.json')), []);
  const [text, setText] = useState<string | null>(null);
  const [serverText, setServerText] = useState('');
  const current = useLoad(async () => {
    const file = await unwrap(
      api.GET('/admin/v1/environments/{environmentId}/definition', { params: { path: { environmentId } } }),
    );
    setServerText(asText(file));
    setText(asText(file));
    return file;
  }, [environmentId]);
  const [previewed, setPreviewed] = useState<{ text: string; diff: EnvironmentDiff } | null>(null);
  const [applied, setApplied] = useState<EnvironmentDiff | null>(null);
  const [reveal, setReveal] = useState<{ path: string } | null>(null);
  const [historyGeneration, setHistoryGeneration] = useState(0);

  const put = (body: EnvironmentFileInput, dryRun: boolean) =>
    unwrap(
      api.PUT('/admin/v1/environments/{environmentId}/definition', {
        params: { path: { environmentId }, query: { dryRun } },
        body,
      }),
    );
  const preview = useAction(async (candidate: string) => {
    setApplied(null);
    setPreviewed(null);
    setPreviewed({ text: candidate, diff: await put(parseFile(candidate), true) });
  });
  const apply = useAction(async (candidate: string) => {
    setApplied(await put(parseFile(candidate), false));
    setPreviewed(null);
    setHistoryGeneration((g) => g + 1);
    current.reload();
  });

  const label = environment.data?.label ?? '';
  const editing = text ?? '';
  const upToDate = previewed !== null && previewed.text === editing;
  const places = refusedPlaces(preview.error ?? apply.error);

  return (
    <>
      <h1>Content{label ? ` · ${label}` : ''}</h1>
      <ProblemMessage error={environment.error} />
      <p className="lead">
        The environment file in JSON: events, player attributes, missions and their collections, the shop,
        leaderboards (plain, team, league) and streaks. Completion (Ctrl+Space) and checks come from the
        file's JSON Schema. <strong>Preview</strong> shows what applying would change; <strong>Apply</strong>{' '}
        sends exactly the text previewed.
        {environment.data?.environment.kind === 'Sandbox' && (
          <>
            {' '}
            <Link
              to={`/organizations/${organizationId}/projects/${environment.data.project.projectId}/promotion`}
            >
              Promote this Sandbox to Live…
            </Link>
          </>
        )}
      </p>
      {!mayWrite && (
        <p className="card" role="note">
          Your role may read this file, not change it.
        </p>
      )}
      {(current.loading || schema.loading) && text === null && <Busy label="Loading the environment file…" />}
      <ProblemMessage error={current.error ?? schema.error} />
      {text !== null && schema.data && (
        <Suspense fallback={<Busy label="Loading the editor…" />}>
          <JsonSchemaEditor
            label={`Environment file of ${label || 'the environment'}`}
            value={editing}
            onChange={(next) => setText(next)}
            schema={schema.data}
            readOnly={!mayWrite}
            problems={places}
            reveal={reveal}
          />
        </Suspense>
      )}
      {text !== null && <ContentForms text={editing} onText={setText} readOnly={!mayWrite} />}
      {mayWrite && text !== null && (
        <div className="actions">
          <button type="button" onClick={() => preview.run(editing)} disabled={preview.busy || apply.busy}>
            {preview.busy ? 'Checking…' : 'Preview'}
          </button>
          <button
            type="button"
            className="primary"
            onClick={() => previewed && apply.run(previewed.text)}
            disabled={!upToDate || !previewed.diff.changed || apply.busy}
            aria-describedby="apply-hint"
          >
            {apply.busy ? 'Applying…' : 'Apply'}
          </button>
          <button
            type="button"
            onClick={() => {
              setText(serverText);
              setPreviewed(null);
              preview.clearError();
            }}
            disabled={editing === serverText}
          >
            Discard changes
          </button>
          <span id="apply-hint" className="muted">
            {!previewed
              ? 'Preview first: Apply sends the text previewed.'
              : !upToDate
                ? 'The text changed since the preview: preview again.'
                : !previewed.diff.changed
                  ? 'The preview changes nothing.'
                  : 'Ready to apply the previewed changes.'}
          </span>
        </div>
      )}
      <ProblemMessage error={preview.error} />
      <ProblemMessage error={apply.error} />
      <RefusedPlaces places={places} onReveal={(path) => setReveal({ path })} />
      {previewed && <DiffView diff={previewed.diff} />}
      {applied && <DiffView diff={applied} />}
      <DefinitionHistory environmentId={environmentId} generation={historyGeneration} />
    </>
  );
}
