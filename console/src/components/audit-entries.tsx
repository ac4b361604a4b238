import type { EnvironmentDiff } from '@engage/contracts/environment-file.ts';
import type { components } from '../api/schema.ts';
import { DiffView } from './diff-view.tsx';

export type AuditEntry = components['schemas']['AdminAuditEntry'];

export const whenUtc = (iso: string) => `${new Date(iso).toLocaleString('en-GB', { timeZone: 'UTC' })} UTC`;

const whoOf = (entry: AuditEntry) =>
  entry.actor.kind === 'admin-token' ? 'admin token' : (entry.actor.email ?? entry.actor.operatorId ?? '—');

const isDiff = (value: unknown): value is EnvironmentDiff =>
  typeof value === 'object' && value !== null && Array.isArray((value as EnvironmentDiff).changes);

/**
 * Entries of the audit log, newest first: who, when, what; each change's difference behind a
 * disclosure, and writes refused for lack of permission marked denied.
 */
export function AuditEntries({ entries, caption }: { entries: readonly AuditEntry[]; caption: string }) {
  return (
    <table className="audit">
      <caption className="visually-hidden">{caption}</caption>
      <thead>
        <tr>
          <th scope="col">When</th>
          <th scope="col">Who</th>
          <th scope="col">What</th>
          <th scope="col">Difference</th>
        </tr>
      </thead>
      <tbody>
        {entries.map((entry) => (
          <tr key={entry.auditId}>
            <td>{whenUtc(entry.atUtc)}</td>
            <td>{whoOf(entry)}</td>
            <td>
              <code>
                {entry.method} {entry.route}
              </code>
              {entry.outcome === 'denied' && (
                <>
                  {' '}
                  <strong>denied</strong> (<code>{entry.refusal}</code>)
                </>
              )}
            </td>
            <td>
              {entry.outcome === 'denied' ? (
                'Nothing changed'
              ) : (
                <details>
                  <summary>Show difference</summary>
                  <EntryDifference entry={entry} />
                </details>
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function EntryDifference({ entry }: { entry: AuditEntry }) {
  if (isDiff(entry.difference)) return <DiffView diff={{ ...entry.difference, dryRun: false }} />;
  return (
    <dl className="before-after">
      <dt>Before</dt>
      <dd>
        <pre>{JSON.stringify(entry.before ?? null, null, 2)}</pre>
      </dd>
      <dt>After</dt>
      <dd>
        <pre>{JSON.stringify(entry.after ?? null, null, 2)}</pre>
      </dd>
    </dl>
  );
}
