/** Pages of the ranked list, with the keys (p, n) that turn them. */
export function GamedPager({
  page,
  pages,
  onPage,
}: {
  page: number;
  pages: number;
  onPage: (to: number) => void;
}) {
  return (
    <div className="pager">
      <button type="button" disabled={page === 0} onClick={() => onPage(page - 1)}>
        ← Prev <kbd>p</kbd>
      </button>
      <span className="hint">
        page {page + 1} of {pages}
      </span>
      <button type="button" disabled={page + 1 >= pages} onClick={() => onPage(page + 1)}>
        Next <kbd>n</kbd> →
      </button>
    </div>
  );
}
