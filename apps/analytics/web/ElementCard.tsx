import type { ChartRender, ChartSize } from "../src/charts/contract.ts";
import type { ElementResult } from "../src/workbooks/run.ts";
import type { TPublicElement } from "../src/workbooks/schema.ts";
import { Chart } from "./Chart.tsx";
import { Kpi } from "./Kpi.tsx";
import type { TNodeType } from "./messages.ts";
import { Table } from "./Table.tsx";

/**
 * One element of the page as a card: its title, its full-screen button, and its KPI, table or chart (a
 * skeleton until its data is here, or its error). Focusing the card selects the element.
 */
export function ElementCard({
  element: e,
  data,
  renders,
  fullscreen,
  selected,
  select,
  toggleFullscreen,
  onChartSize,
  onChartError,
}: {
  element: TPublicElement;
  data: ElementResult | undefined;
  /** The server's drawings of this chart for the data shown. */
  renders: ChartRender[] | undefined;
  fullscreen: string | null;
  selected: string | null;
  select: (nodeId: string | null, nodeType: TNodeType) => void;
  toggleFullscreen: (nodeId: string | null) => void;
  onChartSize: (nodeId: string, size: ChartSize) => void;
  onChartError: (nodeId: string, message: string) => void;
}) {
  const titleId = `t-${e.id}`;
  const descId = `d-${e.id}`;
  const isFull = fullscreen === e.id;
  return (
    <section
      className={`wb-card wb-span-${e.span} wb-type-${e.type}${isFull ? " wb-fullscreen" : ""}`}
      aria-labelledby={titleId}
      aria-describedby={e.description ? descId : undefined}
      data-element-id={e.id}
      data-selected={selected === e.id ? "true" : undefined}
      hidden={fullscreen !== null && !isFull}
      tabIndex={-1}
      onFocus={() => {
        if (selected !== e.id) select(e.id, "element");
      }}
    >
      <div className="wb-card-head">
        <h2 id={titleId} className="wb-card-title">
          {e.title}
        </h2>
        {e.type !== "kpi" && (
          <button
            type="button"
            className="wb-card-action"
            aria-pressed={isFull}
            aria-label={isFull ? `Exit full screen: ${e.title}` : `Full screen: ${e.title}`}
            onClick={() => toggleFullscreen(isFull ? null : e.id)}
          >
            <svg viewBox="0 0 16 16" width="16" height="16" aria-hidden="true">
              <path
                d={
                  isFull ? "M6 2v4H2M10 2v4h4M6 14v-4H2M10 14v-4h4" : "M2 6V2h4M14 6V2h-4M2 10v4h4M14 10v4h-4"
                }
                fill="none"
                stroke="currentColor"
                strokeWidth="1.6"
              />
            </svg>
          </button>
        )}
      </div>
      {e.description && e.type !== "kpi" && (
        <p id={descId} className="wb-card-desc">
          {e.description}
        </p>
      )}
      {!data ? (
        <div
          className="wb-skeleton"
          style={{ minHeight: e.type === "kpi" ? 64 : (e.height ?? 240) }}
          aria-hidden="true"
        />
      ) : data.error ? (
        <p className="wb-element-error">{data.error}</p>
      ) : e.type === "kpi" ? (
        <Kpi element={e} row={data.rows[0]} />
      ) : e.type === "table" ? (
        <Table element={e} rows={data.rows} />
      ) : (
        <Chart element={e} rows={data.rows} renders={renders} onSize={onChartSize} onError={onChartError} />
      )}
    </section>
  );
}
