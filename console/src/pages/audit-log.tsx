import { useParams } from 'react-router';
import { api, unwrap } from '../api/client.ts';
import { AuditEntries } from '../components/audit-entries.tsx';
import { useCursorPages } from '../components/cursor-pages.tsx';
import { Busy, ProblemMessage } from '../components/status.tsx';

const PAGE_SIZE = 20;

/** Every write made through the admin API or the console in the organization, newest first. */
export function AuditLogPage() {
  const { organizationId = '' } = useParams();
  const log = useCursorPages(
    (after) =>
      unwrap(
        api.GET('/admin/v1/organizations/{organizationId}/audit-log', {
          params: {
            path: { organizationId },
            query: { order: 'newest', limit: PAGE_SIZE, ...(after ? { after } : {}) },
          },
        }),
      ),
    [organizationId],
  );
  return (
    <>
      <h1>Audit log</h1>
      <p className="lead">
        Every change made through the admin API or this console: who, when, the route, and what it changed.
        Newest first.
      </p>
      {log.loading && <Busy label="Loading the audit log…" />}
      <ProblemMessage error={log.error} />
      {log.data && log.data.entries.length === 0 && <p>No changes recorded yet.</p>}
      {log.data && log.data.entries.length > 0 && (
        <AuditEntries entries={log.data.entries} caption="Audit log, newest first" />
      )}
      {log.pager}
    </>
  );
}
