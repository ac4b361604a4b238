import { ApiProblem } from '../api/client.ts';

/** Shown while a call is under way: announced to screen readers, visible as a spinner. */
export function Busy({ label }: { label: string }) {
  return (
    <p className="busy" role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" />
      {label}
    </p>
  );
}

/** A failed call as the problem document says it: its detail, then its stable code. */
export function ProblemMessage({ error }: { error: unknown }) {
  if (!error) return null;
  const problem = error instanceof ApiProblem ? error : null;
  return (
    <div className="problem" role="alert">
      <p>{problem ? problem.message : String(error)}</p>
      {problem && (
        <p className="problem-code">
          <code>{problem.code}</code>
          {problem.status > 0 && <span> · HTTP {problem.status}</span>}
          {problem.problem.traceId && <span> · trace {problem.problem.traceId}</span>}
        </p>
      )}
    </div>
  );
}
