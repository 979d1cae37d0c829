import { useMemo, useState } from "react";
import type { TPublicElement } from "../src/workbooks/schema.ts";
import { formatValue } from "./format.ts";

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

/** A real, sortable table: column headers are buttons and carry aria-sort. */
export function Table({ element, rows }: { element: TableElement; rows: Row[] }) {
  // Without a configured sort the rows keep the query's order until a header is clicked.
  const [sort, setSort] = useState<Sort | undefined>(element.sort);
  const sorted = useMemo(() => {
    if (!sort) return rows;
    const out = [...rows];
    out.sort((x, y) => (sort.direction === "asc" ? 1 : -1) * compare(x[sort.field], y[sort.field]));
    return out;
  }, [rows, sort]);
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
    <div className="wb-table-wrap" tabIndex={0} role="region" aria-label={element.title}>
      <table className="wb-table">
        <caption className="wb-visually-hidden">
          {element.title}
          {element.description ? `. ${element.description}` : ""}
          {sortLabel}
        </caption>
        <thead>
          <tr>
            {element.columns.map((c) => {
              const active = sort?.field === c.field;
              const ariaSort = active ? (sort?.direction === "asc" ? "ascending" : "descending") : "none";
              return (
                <th
                  key={c.field}
                  scope="col"
                  className={numeric(c.format) ? "wb-num" : undefined}
                  aria-sort={ariaSort}
                >
                  <button type="button" onClick={() => setSort(nextSort(c.field, c.format))}>
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
        <tbody>
          {sorted.length === 0 ? (
            <tr>
              <td colSpan={element.columns.length} className="wb-empty">
                {element.emptyMessage}
              </td>
            </tr>
          ) : (
            sorted.map((r, i) => (
              <tr key={i}>
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
                      className={[numeric(c.format) ? "wb-num" : "wb-text", sign].filter(Boolean).join(" ")}
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
    </div>
  );
}
