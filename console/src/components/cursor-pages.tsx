import { useState } from 'react';
import { useLoad } from './use-call.ts';

export interface CursorPage<T> {
  entries: T[];
  nextCursor: string | null;
}

/**
 * A list the server pages with cursors: one page loaded at a time, Previous and Next walking the
 * cursors seen so far. `reload()` starts again from the first page.
 */
export function useCursorPages<T>(
  load: (after: string | undefined) => Promise<CursorPage<T>>,
  deps: readonly unknown[],
) {
  // The cursors of the pages before the current one's; the last is the current page's `after`.
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  const after = cursors.at(-1);
  const page = useLoad(() => load(after), [...deps, after]);
  const next = page.data?.nextCursor ?? null;
  const pager =
    cursors.length > 1 || next ? (
      <nav className="pager" aria-label="Pages">
        <button
          type="button"
          onClick={() => setCursors((c) => c.slice(0, -1))}
          disabled={cursors.length <= 1}
        >
          Previous
        </button>
        <span>Page {cursors.length}</span>
        <button type="button" onClick={() => next && setCursors((c) => [...c, next])} disabled={!next}>
          Next
        </button>
      </nav>
    ) : null;
  return {
    ...page,
    pager,
    onFirstPage: cursors.length === 1,
    reload: () => {
      if (cursors.length > 1) setCursors([undefined]);
      else page.reload();
    },
  };
}
