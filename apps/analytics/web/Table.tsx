import { useMemo, useState } from "react";
import type { TPublicElement } from "../src/workbooks/schema.ts";
import { formatValue } from "./format.ts";

type TableElement = Extract<TPublicElement, { type: "table" }>;
type Row = Record<string, unknown>;

function compare(a: unknown, b: unknown): number {
  if (a === b) return 0;
  if (a === null || a === undefined) return 1;
  if (b === null || b === undefined) return -1;
  if (typeof a === "number" && typeof b === "number") return a - b;
  return String(a).localeCompare(String(b));
}

/** A real, sortable table: column headers are buttons and carry aria-sort. */
export function Table({ element, rows }: { element: TableElement; rows: Row[] }) {
  const [sort, setSort] = useState(
    element.sort ?? { field: element.columns[0]?.field ?? "", direction: "asc" as const },
  );
  const sorted = useMemo(() => {
    const out = [...rows];
    out.sort((x, y) => (sort.direction === "asc" ? 1 : -1) * compare(x[sort.field], y[sort.field]));
    return out;
  }, [rows, sort]);
  const numeric = (format: string) => format !== "text" && format !== "date";

  return (
    <div className="wb-table-wrap" tabIndex={0} role="region" aria-label={element.title}>
      <table className="wb-table">
        <caption className="wb-visually-hidden">
          {element.title}
          {element.description ? `. ${element.description}` : ""} Sorted by{" "}
          {element.columns.find((c) => c.field === sort.field)?.label},{" "}
          {sort.direction === "asc" ? "ascending" : "descending"}.
        </caption>
        <thead>
          <tr>
            {element.columns.map((c) => {
              const active = sort.field === c.field;
              return (
                <th
                  key={c.field}
                  scope="col"
                  className={numeric(c.format) ? "wb-num" : undefined}
                  aria-sort={active ? (sort.direction === "asc" ? "ascending" : "descending") : "none"}
                >
                  <button
                    type="button"
                    onClick={() =>
                      setSort({
                        field: c.field,
                        direction:
                          active && sort.direction === "desc"
                            ? "asc"
                            : active
                              ? "desc"
                              : numeric(c.format)
                                ? "desc"
                                : "asc",
                      })
                    }
                  >
                    {c.label}
                    <span aria-hidden="true" className="wb-sort">
                      {active ? (sort.direction === "asc" ? "▲" : "▼") : ""}
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
                      className={
                        [numeric(c.format) ? "wb-num" : "", sign].filter(Boolean).join(" ") || undefined
                      }
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
