import { ApiProblem } from '../api/client.ts';
import type { PlaceProblem } from './json-schema-editor.tsx';

/** The places a refused file names (`errors[].meta.path`), with their messages and codes. */
export function refusedPlaces(error: unknown): (PlaceProblem & { code: string })[] {
  if (!(error instanceof ApiProblem)) return [];
  return (error.problem.errors ?? []).flatMap((item) => {
    const path = (item.meta as { path?: unknown } | undefined)?.path;
    return typeof path === 'string' ? [{ path, message: item.message, code: item.code }] : [];
  });
}

/** Each refused place as a row: its path (a button that shows it in the text), message and code. */
export function RefusedPlaces(props: {
  places: readonly (PlaceProblem & { code: string })[];
  /** Shows the place in the editor; without it the path is plain text. */
  onReveal?: (path: string) => void;
}) {
  if (props.places.length === 0) return null;
  return (
    <section className="card refused" aria-labelledby="refused-heading">
      <h2 id="refused-heading">What the server refused</h2>
      <ul>
        {props.places.map((place) => (
          <li key={`${place.path}/${place.code}/${place.message}`}>
            {props.onReveal ? (
              <button type="button" className="link" onClick={() => props.onReveal?.(place.path)}>
                <code>{place.path || '(the file)'}</code>
              </button>
            ) : (
              <code>{place.path || '(the file)'}</code>
            )}{' '}
            {place.message} <code className="muted">{place.code}</code>
          </li>
        ))}
      </ul>
    </section>
  );
}
