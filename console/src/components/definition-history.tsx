import { api, unwrap } from '../api/client.ts';
import { AuditEntries } from './audit-entries.tsx';
import { useCursorPages } from './cursor-pages.tsx';
import { Busy, ProblemMessage } from './status.tsx';

const PAGE_SIZE = 10;

/** The environment file's applied versions, newest first, with who, when and each difference. */
export function DefinitionHistory({
  environmentId,
  generation,
}: {
  environmentId: string;
  generation: number;
}) {
  const history = useCursorPages(
    (after) =>
      unwrap(
        api.GET('/admin/v1/environments/{environmentId}/definition/history', {
          params: { path: { environmentId }, query: { limit: PAGE_SIZE, ...(after ? { after } : {}) } },
        }),
      ),
    [environmentId, generation],
  );
  return (
    <section className="card" aria-labelledby="history-heading">
      <h2 id="history-heading">History of applied versions</h2>
      {history.loading && <Busy label="Loading the history…" />}
      <ProblemMessage error={history.error} />
      {history.data && history.data.entries.length === 0 && <p>Nothing applied yet.</p>}
      {history.data && history.data.entries.length > 0 && (
        <AuditEntries entries={history.data.entries} caption="Applied versions, newest first" />
      )}
      {history.pager}
    </section>
  );
}
