import { useLayoutEffect, useMemo, useRef, useState } from "react";
import type { TPublicElement } from "../src/workbooks/schema.ts";
import { formatValue } from "../src/workbooks/format.ts";

type TableElement = Extract<TPublicElement, { type: "table" }>;
type Row = Record<string, unknown>;
type Sort = { field: string; direction: "asc" | "desc" };

function compare(a: unknown, b: unknown): number {
  if (a === b) return 0;
  if (a === null || a === undefined) return 1;
  if (b === null || b === undefined) return -1;
  if (typeof a === "number" && typeof b === "number") return a - b;
  return String(a).localeCompare(String(b));
}

const numeric = (format: string) => format !== "text" && format !== "date";

/**
 * Whether the table is shown as stacked rows (each row a block of "label value" lines): when its columns
 * do not fit the card's width (phones, and narrow cards of wide tables), so that it never scrolls sideways.
 * Decided before paint, so the frame's height does not jump.
 */
function useStacked(wrap: React.RefObject<HTMLDivElement | null>, deps: readonly unknown[]): boolean {
  const [stacked, setStacked] = useState(false);
  // The width the table needs with its columns side by side, measured while it was shown that way.
  const natural = useRef(0);
  useLayoutEffect(() => {
    const el = wrap.current;
    const table = el?.querySelector("table");
    if (!el || !table) return;
    const decide = () => {
      if (!el.classList.contains("wb-stacked")) natural.current = table.scrollWidth;
      return natural.current > el.clientWidth + 1;
    };
    // Measured now, so the first paint already has the right form (an observer's first report would only
    // be drawn in the next frame, moving everything under the table).
    setStacked(decide());
    // Later changes of size (a resize, a rotation) take the new form in the next frame: drawing it within
    // the observer's callback (flushSync) would change the boxes other observers watch in the same frame.
    const observer = new ResizeObserver(() => setStacked(decide()));
    observer.observe(el);
    return () => observer.disconnect();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- re-measured when the rows shown change
  }, deps);
  return stacked;
}

/**
 * A real, sortable table: column headers are buttons and carry aria-sort. Long tables page (no scroll box
 * inside the page); tables too wide for their card stack each row (the roles keep the table's semantics when
 * CSS changes its display).
 */
export function Table({ element, rows }: { element: TableElement; rows: Row[] }) {
  // Without a configured sort the rows keep the query's order until a header is clicked.
  const [sort, setSort] = useState<Sort | undefined>(element.sort);
  const [page, setPage] = useState(0);
  const sorted = useMemo(() => {
    if (!sort) return rows;
    const out = [...rows];
    out.sort((x, y) => (sort.direction === "asc" ? 1 : -1) * compare(x[sort.field], y[sort.field]));
    return out;
  }, [rows, sort]);
  const pages = Math.max(1, Math.ceil(sorted.length / element.pageSize));
  const current = Math.min(page, pages - 1);
  const first = current * element.pageSize;
  const shown = useMemo(
    () => sorted.slice(first, first + element.pageSize),
    [sorted, first, element.pageSize],
  );
  const wrap = useRef<HTMLDivElement>(null);
  const stacked = useStacked(wrap, [shown, element]);

  const sortLabel = sort
    ? ` Sorted by ${element.columns.find((c) => c.field === sort.field)?.label ?? sort.field}, ${
        sort.direction === "asc" ? "ascending" : "descending"
      }.`
    : "";
  const nextSort = (field: string, format: string): Sort => {
    if (sort?.field === field) return { field, direction: sort.direction === "desc" ? "asc" : "desc" };
    return { field, direction: numeric(format) ? "desc" : "asc" };
  };

  return (
    <div ref={wrap} className={`wb-table-wrap${stacked ? " wb-stacked" : ""}`}>
      <table className="wb-table" role="table">
        <caption className="wb-visually-hidden">
          {element.title}
          {element.description ? `. ${element.description}` : ""}
          {sortLabel}
        </caption>
        <thead role="rowgroup">
          <tr role="row">
            {element.columns.map((c) => {
              const active = sort?.field === c.field;
              const ariaSort = active ? (sort?.direction === "asc" ? "ascending" : "descending") : "none";
              return (
                <th
                  key={c.field}
                  scope="col"
                  role="columnheader"
                  className={numeric(c.format) ? "wb-num" : undefined}
                  aria-sort={ariaSort}
                >
                  <button
                    type="button"
                    onClick={() => {
                      setSort(nextSort(c.field, c.format));
                      setPage(0);
                    }}
                  >
                    {c.label}
                    <span aria-hidden="true" className="wb-sort">
                      {active ? (sort?.direction === "asc" ? "▲" : "▼") : ""}
                    </span>
                  </button>
                </th>
              );
            })}
          </tr>
        </thead>
        <tbody role="rowgroup">
          {shown.length === 0 ? (
            <tr role="row">
              <td role="cell" colSpan={element.columns.length} className="wb-empty">
                {element.emptyMessage}
              </td>
            </tr>
          ) : (
            shown.map((r, i) => (
              <tr role="row" key={first + i}>
                {element.columns.map((c) => {
                  const v = r[c.field];
                  const sign =
                    c.signed && typeof v === "number"
                      ? v > 0.005
                        ? "wb-pos"
                        : v < -0.005
                          ? "wb-neg"
                          : ""
                      : "";
                  return (
                    <td
                      key={c.field}
                      role="cell"
                      data-label={c.label}
                      className={[
                        numeric(c.format) ? "wb-num" : c.format === "date" ? "wb-date" : "wb-text",
                        sign,
                      ]
                        .filter(Boolean)
                        .join(" ")}
                    >
                      {formatValue(v, c.format)}
                    </td>
                  );
                })}
              </tr>
            ))
          )}
        </tbody>
      </table>
      {pages > 1 && (
        <div className="wb-pager" role="group" aria-label={`${element.title}: pages`}>
          <p className="wb-pager-status" aria-live="polite">
            Rows {first + 1}–{first + shown.length} of {sorted.length}
          </p>
          <button type="button" disabled={current === 0} onClick={() => setPage(current - 1)}>
            Previous
          </button>
          <button type="button" disabled={current >= pages - 1} onClick={() => setPage(current + 1)}>
            Next
          </button>
        </div>
      )}
    </div>
  );
}
