import type { ChartSize } from "../src/charts/contract.ts";
import type { EmbedBoot } from "../src/embed/boot.ts";
import { formatValue } from "../src/workbooks/format.ts";
import type { TPublicWorkbook } from "../src/workbooks/schema.ts";
import { Controls } from "./Controls.tsx";
import type { Loaded, Renders } from "./drawings.ts";
import { ElementCard } from "./ElementCard.tsx";
import type { TNodeType } from "./messages.ts";

/** Sigma's code-less message, shown instead of the workbook once the session has ended. */
const SESSION_EXPIRED = "Session expired. Reload the page.";

export function SessionExpired() {
  return (
    <main className="wb-root wb-expired">
      <p role="alert">{SESSION_EXPIRED}</p>
    </main>
  );
}

/** The workbook's page: its header and page tabs (unless the host hides the menu), its filters, its cards. */
export function Workbook({
  boot,
  loading,
  error,
  result,
  renders,
  page,
  pageId,
  fullscreen,
  selected,
  select,
  toggleFullscreen,
  change,
  onChartSize,
  onChartError,
}: {
  boot: EmbedBoot;
  loading: boolean;
  /** The page's data could not be loaded: the message shown above the cards. */
  error: string | undefined;
  /** The data shown. */
  result: Loaded | undefined;
  renders: Renders;
  page: TPublicWorkbook["pages"][number] | undefined;
  pageId: string;
  fullscreen: string | null;
  selected: string | null;
  select: (nodeId: string | null, nodeType: TNodeType) => void;
  toggleFullscreen: (nodeId: string | null) => void;
  change: (updates: Record<string, string>) => void;
  onChartSize: (nodeId: string, size: ChartSize) => void;
  onChartError: (nodeId: string, message: string) => void;
}) {
  const controls = result?.controls ?? [];
  return (
    <main className="wb-root" aria-busy={loading}>
      {!boot.hideMenu && (
        <header className="wb-header">
          <div>
            <h1 className="wb-title">{boot.workbook.name}</h1>
            {result && <p className="wb-subtitle">Data as of {formatValue(result.asOf, "date")}</p>}
          </div>
          {boot.workbook.pages.length > 1 && (
            <nav aria-label="Pages" className="wb-tabs">
              {boot.workbook.pages.map((p) => (
                <button
                  key={p.id}
                  type="button"
                  aria-current={p.id === pageId ? "page" : undefined}
                  onClick={() => select(p.id, "page")}
                >
                  {p.title}
                </button>
              ))}
            </nav>
          )}
        </header>
      )}
      {controls.some((c) => !c.hidden) && <Controls controls={controls} change={change} />}
      {error !== undefined && (
        <div role="alert" className="wb-error">
          {error}
        </div>
      )}
      <div className="wb-grid">
        {page?.elements.map((e) => (
          <ElementCard
            key={e.id}
            element={e}
            data={result?.elements[e.id]}
            renders={result?.seq === renders.seq ? renders.byId[e.id] : undefined}
            fullscreen={fullscreen}
            selected={selected}
            select={select}
            toggleFullscreen={toggleFullscreen}
            onChartSize={onChartSize}
            onChartError={onChartError}
          />
        ))}
      </div>
    </main>
  );
}
