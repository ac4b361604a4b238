import type { EnvironmentDiff, EventDefinition } from '@engage/contracts/environment-file.ts';
import { useState } from 'react';
import { api, unwrap } from '../api/client.ts';
import { canWrite, useMembership } from '../session/session.tsx';
import { DiffView } from './diff-view.tsx';
import { usePage } from './pager.tsx';
import { PreviewedChange } from './previewed-change.tsx';
import { Busy, ProblemMessage } from './status.tsx';
import { useAction, useLoad } from './use-call.ts';

/**
 * The environment's event definitions, declared and discovered, with their property types. A
 * discovered event is declared by applying the events section with its `discovered` flag removed:
 * the change is shown as a dry run first, then applied (designer).
 */
export function EventDefinitions(props: { organizationId: string; environmentId: string }) {
  const { organizationId, environmentId } = props;
  const mayDeclare = canWrite(useMembership(organizationId), 'definition');
  const definition = useLoad(
    () =>
      unwrap(
        api.GET('/admin/v1/environments/{environmentId}/definition', { params: { path: { environmentId } } }),
      ),
    [environmentId],
  );
  const events = (definition.data?.events ?? []) as EventDefinition[];
  const { rows, pager } = usePage(events);
  const [preview, setPreview] = useState<{ key: string; diff: EnvironmentDiff } | null>(null);
  const [applied, setApplied] = useState<EnvironmentDiff | null>(null);

  const declaring = (key: string) =>
    events.map(({ discovered, ...event }) => (event.key === key ? event : { ...event, discovered }));
  const put = (key: string, dryRun: boolean) =>
    unwrap(
      api.PUT('/admin/v1/environments/{environmentId}/definition', {
        params: { path: { environmentId }, query: { dryRun } },
        body: { events: declaring(key) },
      }),
    );
  const previewDeclare = useAction(async (key: string) => {
    setApplied(null);
    setPreview({ key, diff: await put(key, true) });
  });
  const apply = useAction(async (key: string) => {
    setApplied(await put(key, false));
    setPreview(null);
    definition.reload();
  });

  return (
    <section aria-labelledby="definitions-heading">
      <h2 id="definitions-heading">Definitions</h2>
      {definition.loading && <Busy label="Loading the definitions…" />}
      <ProblemMessage error={definition.error} />
      {definition.data && events.length === 0 && <p>No events are defined yet.</p>}
      {events.length > 0 && (
        <table>
          <caption className="visually-hidden">Event definitions</caption>
          <thead>
            <tr>
              <th scope="col">Event</th>
              <th scope="col">Origin</th>
              <th scope="col">State</th>
              <th scope="col">Properties</th>
              {mayDeclare && <th scope="col">Action</th>}
            </tr>
          </thead>
          <tbody>
            {rows.map((event) => (
              <tr key={event.key}>
                <td>
                  <code>{event.key}</code>
                </td>
                <td>
                  <span className={`badge ${event.discovered ? 'origin-discovered' : 'origin-declared'}`}>
                    {event.discovered ? 'Discovered' : 'Declared'}
                  </span>
                </td>
                <td>{event.active === false ? 'Switched off' : 'Active'}</td>
                <td>
                  <PropertyList properties={event.properties ?? {}} />
                </td>
                {mayDeclare && (
                  <td>
                    {event.discovered && (
                      <button
                        type="button"
                        onClick={() => previewDeclare.run(event.key)}
                        disabled={previewDeclare.busy}
                        aria-label={`Declare ${event.key}`}
                      >
                        {previewDeclare.busy ? 'Checking…' : 'Declare…'}
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
      <ProblemMessage error={previewDeclare.error} />
      {preview && (
        <section className="card" aria-label={`Declaring ${preview.key}`}>
          <p>
            Declaring <code>{preview.key}</code> keeps its properties and makes it part of the environment
            file: it no longer depends on discovery.
          </p>
          <PreviewedChange
            diff={preview.diff}
            applying={apply.busy}
            onApply={() => apply.run(preview.key)}
            onCancel={() => setPreview(null)}
          />
        </section>
      )}
      <ProblemMessage error={apply.error} />
      {applied && <DiffView diff={applied} />}
    </section>
  );
}

function PropertyList({ properties }: { properties: EventDefinition['properties'] }) {
  const entries = Object.entries(properties);
  if (entries.length === 0) return <span className="muted">none</span>;
  return (
    <ul className="properties">
      {entries.map(([name, property]) => (
        <li key={name}>
          <code>{name}</code>: {property.type}
          {property.required ? ' (required)' : ''}
        </li>
      ))}
    </ul>
  );
}
