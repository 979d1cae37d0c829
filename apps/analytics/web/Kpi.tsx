import { formatValue } from "../src/workbooks/format.ts";
import type { TPublicElement } from "../src/workbooks/schema.ts";

/** A KPI card's figures: its value, the change beside it, its details and caption. */
export function Kpi({
  element,
  row,
}: {
  element: Extract<TPublicElement, { type: "kpi" }>;
  row: Record<string, unknown> | undefined;
}) {
  const delta = element.delta && row ? row[element.delta.field] : undefined;
  const deltaNum = typeof delta === "number" ? delta : undefined;
  return (
    <div className="wb-kpi">
      <p className="wb-kpi-value">{formatValue(row?.[element.value], element.format)}</p>
      {element.delta && (
        <p className={`wb-kpi-delta ${deltaNum === undefined ? "" : deltaNum >= 0 ? "wb-pos" : "wb-neg"}`}>
          <span aria-hidden="true">{deltaNum === undefined ? "" : deltaNum >= 0 ? "▲ " : "▼ "}</span>
          {deltaNum !== undefined && deltaNum > 0 ? "+" : ""}
          {formatValue(delta, element.delta.format)} {element.delta.label}
        </p>
      )}
      {element.details.length > 0 && (
        <dl className="wb-kpi-details">
          {element.details.map((d) => (
            <div key={d.field}>
              <dt>{d.label}</dt>
              <dd>{formatValue(row?.[d.field], d.format)}</dd>
            </div>
          ))}
        </dl>
      )}
      {element.caption && row?.[element.caption] !== undefined && (
        <p className="wb-kpi-caption">{String(row[element.caption])}</p>
      )}
    </div>
  );
}
