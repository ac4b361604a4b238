import type { EnvironmentFileInput } from '@engage/contracts/environment-file.ts';

type Mission = NonNullable<EnvironmentFileInput['missions']>[number];
const REPEATS = ['none', 'daily', 'weekly', 'afterCompletion'] as const;

function parsed(text: string): EnvironmentFileInput | null {
  try {
    const file = JSON.parse(text) as unknown;
    return typeof file === 'object' && file !== null && !Array.isArray(file)
      ? (file as EnvironmentFileInput)
      : null;
  } catch {
    return null;
  }
}

/**
 * The missions' most edited fields as a form over the editor's text: a change here rewrites the
 * text (then Preview and Apply as for any edit), so form and editor never disagree.
 */
export function MissionsForm(props: { text: string; onText: (text: string) => void; readOnly: boolean }) {
  const file = parsed(props.text);
  const missions = file?.missions ?? [];
  const change = (index: number, fields: Partial<Mission>) => {
    if (!file) return;
    const next = missions.map((m, i) => (i === index ? { ...m, ...fields } : m));
    props.onText(`${JSON.stringify({ ...file, missions: next }, null, 2)}\n`);
  };
  return (
    <details className="card missions-form">
      <summary>Missions as a form</summary>
      {!file && <p>The text is not a JSON object: fix it in the editor to use the form.</p>}
      {file && missions.length === 0 && <p>The file has no missions.</p>}
      {file && missions.length > 0 && (
        <table>
          <caption className="visually-hidden">Missions</caption>
          <thead>
            <tr>
              <th scope="col">Key</th>
              <th scope="col">Name</th>
              <th scope="col">Listed</th>
              <th scope="col">Repeat</th>
            </tr>
          </thead>
          <tbody>
            {missions.map((mission, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: a key may repeat in text being edited; rows follow the text's order.
              <tr key={`${index}/${mission.key}`}>
                <td>
                  <code>{mission.key}</code>
                </td>
                <td>
                  {typeof mission.name === 'string' ? (
                    <input
                      aria-label={`Name of ${mission.key}`}
                      value={mission.name}
                      readOnly={props.readOnly}
                      onChange={(e) => change(index, { name: e.target.value })}
                    />
                  ) : (
                    <span className="muted">translated: edit in the text</span>
                  )}
                </td>
                <td>
                  <input
                    type="checkbox"
                    aria-label={`${mission.key} listed`}
                    checked={mission.listed ?? true}
                    disabled={props.readOnly}
                    onChange={(e) => change(index, { listed: e.target.checked })}
                  />
                </td>
                <td>
                  <select
                    aria-label={`Repeat of ${mission.key}`}
                    value={mission.repeat ?? 'none'}
                    disabled={props.readOnly}
                    onChange={(e) => change(index, { repeat: e.target.value as Mission['repeat'] })}
                  >
                    {REPEATS.map((r) => (
                      <option key={r} value={r}>
                        {r}
                      </option>
                    ))}
                  </select>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </details>
  );
}
