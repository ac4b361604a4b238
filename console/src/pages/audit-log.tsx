import { type FormEvent, useState } from 'react';
import { useParams, useSearchParams } from 'react-router';
import { api, unwrap } from '../api/client.ts';
import { AuditEntries } from '../components/audit-entries.tsx';
import { useCursorPages } from '../components/cursor-pages.tsx';
import { Busy, ProblemMessage } from '../components/status.tsx';

const PAGE_SIZE = 20;

/** The filters the server applies, as the page's address holds them (a filtered log is a link). */
const FILTERS = ['operatorEmail', 'route', 'from', 'to'] as const;
type Filter = Partial<Record<(typeof FILTERS)[number], string>>;

/** A `datetime-local` value (minutes, no zone) read as UTC, and back. */
const utcOfLocalInput = (value: string) => (value ? `${value}:00Z` : '');
const localInputOfUtc = (value: string | undefined) => value?.replace(/:\d\d(\.\d+)?Z$/, '') ?? '';

/** Every write made through the admin API or the console in the organization, newest first. */
export function AuditLogPage() {
  const { organizationId = '' } = useParams();
  const [search, setSearch] = useSearchParams();
  const filter: Filter = Object.fromEntries(
    FILTERS.flatMap((name) => (search.get(name) ? [[name, search.get(name)!]] : [])),
  );
  return (
    <>
      <h1>Audit log</h1>
      <p className="lead">
        Every change made through the admin API or this console: who, when, the route, and what it changed.
        Newest first.
      </p>
      <FilterForm
        key={`filter-${search}`}
        filter={filter}
        onFilter={(next) =>
          setSearch(Object.fromEntries(Object.entries(next).filter(([, value]) => value !== '')))
        }
      />
      {/* A new filter starts again from the first page. */}
      <Entries key={`entries-${search}`} organizationId={organizationId} filter={filter} />
    </>
  );
}

function FilterForm(props: { filter: Filter; onFilter: (filter: Filter) => void }) {
  const [operatorEmail, setOperatorEmail] = useState(props.filter.operatorEmail ?? '');
  const [route, setRoute] = useState(props.filter.route ?? '');
  const [from, setFrom] = useState(localInputOfUtc(props.filter.from));
  const [to, setTo] = useState(localInputOfUtc(props.filter.to));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    props.onFilter({
      operatorEmail: operatorEmail.trim(),
      route: route.trim(),
      from: utcOfLocalInput(from),
      to: utcOfLocalInput(to),
    });
  };
  const filtered = Object.keys(props.filter).length > 0;
  return (
    <form className="card inline-form" onSubmit={submit} aria-label="Filter the audit log">
      <label>
        Operator's email
        <input type="email" value={operatorEmail} onChange={(e) => setOperatorEmail(e.target.value)} />
      </label>
      <label>
        Route contains
        <input value={route} onChange={(e) => setRoute(e.target.value)} placeholder="/api-keys" />
      </label>
      <label>
        From (UTC)
        <input type="datetime-local" value={from} onChange={(e) => setFrom(e.target.value)} />
      </label>
      <label>
        Before (UTC)
        <input type="datetime-local" value={to} onChange={(e) => setTo(e.target.value)} />
      </label>
      <button type="submit" className="primary">
        Filter
      </button>
      {filtered && (
        <button type="button" onClick={() => props.onFilter({})}>
          Clear filters
        </button>
      )}
    </form>
  );
}

function Entries({ organizationId, filter }: { organizationId: string; filter: Filter }) {
  const log = useCursorPages(
    (after) =>
      unwrap(
        api.GET('/admin/v1/organizations/{organizationId}/audit-log', {
          params: {
            path: { organizationId },
            query: { order: 'newest', limit: PAGE_SIZE, ...filter, ...(after ? { after } : {}) },
          },
        }),
      ),
    [organizationId],
  );
  const filtered = Object.keys(filter).length > 0;
  return (
    <>
      {log.loading && <Busy label="Loading the audit log…" />}
      <ProblemMessage error={log.error} />
      {log.data && log.data.entries.length === 0 && (
        <p>{filtered ? 'No change matches these filters.' : 'No changes recorded yet.'}</p>
      )}
      {log.data && log.data.entries.length > 0 && (
        <AuditEntries entries={log.data.entries} caption="Audit log, newest first" />
      )}
      {log.pager}
    </>
  );
}
