import type { EnvironmentDiff } from '@engage/contracts/environment-file.ts';

const CHANGE_LABELS = {
  created: 'Created',
  updated: 'Updated',
  removed: 'Removed',
  unchanged: 'Unchanged',
} as const;

/** What applying a definition would change (a dry run) or changed, item by item. */
export function DiffView({ diff }: { diff: EnvironmentDiff }) {
  const changes = diff.changes.filter((c) => c.change !== 'unchanged');
  return (
    <section className="card diff" aria-label={diff.dryRun ? 'Changes to apply' : 'Changes applied'}>
      <h2>{diff.dryRun ? 'Changes to apply' : 'Applied'}</h2>
      {changes.length === 0 ? (
        <p>Nothing changes.</p>
      ) : (
        <table>
          <thead>
            <tr>
              <th scope="col">Section</th>
              <th scope="col">Key</th>
              <th scope="col">Change</th>
              <th scope="col">Fields</th>
            </tr>
          </thead>
          <tbody>
            {changes.map((c) => (
              <tr key={`${c.section}/${c.key}`} className={`change-${c.change}`}>
                <td>{c.section}</td>
                <td>
                  <code>{c.key}</code>
                </td>
                <td>{CHANGE_LABELS[c.change]}</td>
                <td>{c.fields.join(', ')}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
