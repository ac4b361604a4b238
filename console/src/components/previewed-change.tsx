import type { EnvironmentDiff } from '@engage/contracts/environment-file.ts';
import { DiffView } from './diff-view.tsx';

/** A dry run's difference with the choice to apply it or leave it. */
export function PreviewedChange(props: {
  diff: EnvironmentDiff;
  applying: boolean;
  onApply: () => void;
  onCancel: () => void;
}) {
  return (
    <>
      <DiffView diff={props.diff} />
      <div className="actions">
        <button type="button" className="primary" onClick={props.onApply} disabled={props.applying}>
          {props.applying ? 'Applying…' : 'Apply'}
        </button>
        <button type="button" onClick={props.onCancel}>
          Cancel
        </button>
      </div>
    </>
  );
}
