import { useState } from 'react';

/** Long lists are shown a page at a time; the pager says where the reader is. */
export function usePage<T>(items: readonly T[], pageSize = 20) {
  const [page, setPage] = useState(0);
  const pages = Math.max(1, Math.ceil(items.length / pageSize));
  const current = Math.min(page, pages - 1);
  return {
    rows: items.slice(current * pageSize, (current + 1) * pageSize),
    pager: <Pager page={current} pages={pages} onPage={setPage} />,
  };
}

function Pager({ page, pages, onPage }: { page: number; pages: number; onPage: (page: number) => void }) {
  if (pages <= 1) return null;
  return (
    <nav className="pager" aria-label="Pages">
      <button type="button" onClick={() => onPage(page - 1)} disabled={page === 0}>
        Previous
      </button>
      <span>
        Page {page + 1} of {pages}
      </span>
      <button type="button" onClick={() => onPage(page + 1)} disabled={page >= pages - 1}>
        Next
      </button>
    </nav>
  );
}
