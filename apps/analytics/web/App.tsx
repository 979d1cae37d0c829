import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { sameView, type ChartRender, type ChartSize } from "../src/charts/contract.ts";
import type { EmbedBoot, PageData } from "../src/embed/boot.ts";
import { SIGMA_ERROR_CODES, type TSigmaErrorCode } from "../src/error-codes.ts";
import { encodeControlList } from "../src/workbooks/control-values.ts";
import { formatValue } from "../src/workbooks/format.ts";
import type { ResolvedControl } from "../src/workbooks/run.ts";
import type { TPublicElement } from "../src/workbooks/schema.ts";
import { Chart } from "./Chart.tsx";
import { createMessenger, type TNodeType } from "./messages.ts";
import { Table } from "./Table.tsx";

type Loaded = PageData & { seq: number };
type Status = { kind: "loading" } | { kind: "ready"; result: Loaded } | { kind: "error"; message: string };
/** The server's drawings of the charts for the data of `seq`, newest last per element. */
type Renders = { seq: number; byId: Record<string, ChartRender[]> };

const isChartElement = (e: TPublicElement) => e.type !== "kpi" && e.type !== "table";
/** Sigma's code-less message, shown instead of the workbook once the session has ended. */
const SESSION_EXPIRED = "Session expired. Reload the page.";
/** A failed answer's code when it is one of Sigma's, else UNKNOWN. */
const sigmaCode = (code: unknown): TSigmaErrorCode =>
  (SIGMA_ERROR_CODES as readonly unknown[]).includes(code) ? (code as TSigmaErrorCode) : "UNKNOWN";
/** A single choice's value as Sigma writes it; a multiple choice's list, or `:null` when nothing is chosen. */
const encodeChoice = (values: readonly string[]) => (values.length ? encodeControlList(values) : ":null");
/** Drawings kept per element: its sizes in and out of full screen, and a resize or two. */
const KEEP_RENDERS = 4;
const rendersOf = (charts: Record<string, ChartRender>, seq: number): Renders => ({
  seq,
  byId: Object.fromEntries(Object.entries(charts).map(([id, r]) => [id, [r]])),
});

function Kpi({
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

function DateRange({ control, onChange }: { control: ResolvedControl; onChange: (value: string) => void }) {
  const m = /min:(\d{4}-\d{2}-\d{2}),max:(\d{4}-\d{2}-\d{2})/.exec(control.value);
  const start = m?.[1] ?? "";
  const end = m?.[2] ?? "";
  return (
    <fieldset className="wb-control wb-daterange">
      <legend>{control.label}</legend>
      <select
        aria-label={`${control.label} preset`}
        value=""
        onChange={(e) => e.target.value && onChange(e.target.value)}
      >
        <option value="">Preset…</option>
        <option value="mtd">Month to date</option>
        <option value="qtd">Quarter to date</option>
        <option value="ytd">Year to date</option>
        <option value="t12m">Last 12 months</option>
        <option value="all">All history</option>
      </select>
      <label>
        <span className="wb-visually-hidden">{control.label} from</span>
        <input type="date" value={start} onChange={(e) => onChange(`min:${e.target.value},max:${end}`)} />
      </label>
      <span aria-hidden="true">–</span>
      <label>
        <span className="wb-visually-hidden">{control.label} to</span>
        <input type="date" value={end} onChange={(e) => onChange(`min:${start},max:${e.target.value}`)} />
      </label>
    </fieldset>
  );
}

export function App({ boot }: { boot: EmbedBoot }) {
  const messenger = useMemo(() => createMessenger(boot.allowedOrigins), [boot.allowedOrigins]);
  const [variables, setVariables] = useState<Record<string, string>>(boot.initialVariables);
  // The first page's data (and its charts) came with the page: shown by the first render.
  const [status, setStatus] = useState<Status>(() =>
    boot.initialData ? { kind: "ready", result: { ...boot.initialData, seq: 0 } } : { kind: "loading" },
  );
  const [pageId, setPageId] = useState(boot.pageId);
  const currentVariables = useRef<Record<string, string>>(
    boot.initialData?.variables ?? boot.initialVariables,
  );
  const dataPosted = useRef<number>(-1);
  const requestSeq = useRef(0);
  const [renders, setRenders] = useState<Renders>(() => rendersOf(boot.initialData?.charts ?? {}, 0));
  /** Each chart's box as last measured (the size its drawing must have). */
  const [sizes, setSizes] = useState<Record<string, ChartSize>>({});
  const sizesNow = useRef(sizes);
  const [fullscreen, setFullscreen] = useState<string | null>(null);
  /** The session ended (its JWT's exp passed): the page shows Sigma's "Session expired" and nothing else. */
  const [expired, setExpired] = useState(false);
  const [selected, setSelected] = useState<string | null>(null);
  /** An element the host asked to select: brought into view and focused once its page shows. */
  const [reveal, setReveal] = useState<{ id: string } | null>(null);
  const revealed = useRef<{ id: string } | null>(null);
  const page = boot.workbook.pages.find((p) => p.id === pageId) ?? boot.workbook.pages[0];

  // The token must not linger in the frame's URL or history.
  useEffect(() => {
    window.history.replaceState(null, "", boot.cleanUrl);
    messenger.post({
      type: "workbook:loaded",
      workbook: { variables: boot.initialData?.variables ?? boot.initialVariables },
    });
  }, [boot, messenger]);

  // `url:onchange`: the embed's path, without query (so never the token), on load and whenever the page
  // shown changes.
  useEffect(() => {
    const url = new URL(boot.cleanUrl, window.location.origin);
    if (pageId !== boot.pageId) {
      url.pathname = `${url.pathname.replace(/\/page\/[^/]*$/, "")}/page/${encodeURIComponent(pageId)}`;
    }
    if (url.pathname !== window.location.pathname) window.history.replaceState(null, "", url);
    messenger.post({ type: "url:onchange", url: url.pathname });
  }, [boot, pageId, messenger]);

  // `workbook:fullscreen:onchange` whenever an element enters or leaves full screen (not on load).
  const fullscreenPosted = useRef(false);
  useEffect(() => {
    if (!fullscreenPosted.current && fullscreen === null) return;
    fullscreenPosted.current = true;
    messenger.post({ type: "workbook:fullscreen:onchange", fullScreen: fullscreen !== null });
  }, [fullscreen, messenger]);
  useEffect(() => {
    if (fullscreen === null) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape") setFullscreen(null);
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [fullscreen]);

  const pageOf = useCallback(
    (elementId: string) => boot.workbook.pages.find((p) => p.elements.some((e) => e.id === elementId)),
    [boot],
  );

  /** Selects a page or an element (showing its page) and tells the host (`workbook:selectednodeid:onchange`). */
  const select = useCallback(
    (nodeId: string | null, nodeType: TNodeType, fromHost = false) => {
      if (nodeType === "page") {
        if (nodeId !== null && !boot.workbook.pages.some((p) => p.id === nodeId)) return;
        if (nodeId !== null) setPageId(nodeId);
        setSelected(null);
      } else {
        const owner = nodeId === null ? undefined : pageOf(nodeId);
        if (nodeId !== null && !owner) return;
        if (owner) setPageId(owner.id);
        setSelected(nodeId);
        if (fromHost && nodeId !== null) setReveal({ id: nodeId });
      }
      setFullscreen((f) => (nodeType === "page" ? null : f));
      messenger.post({ type: "workbook:selectednodeid:onchange", selectedNodeId: nodeId, nodeType });
    },
    [boot, pageOf, messenger],
  );

  /** Maximises the element, or restores it when it is the one maximised (`null`: restores any). */
  const toggleFullscreen = useCallback(
    (nodeId: string | null) => {
      if (nodeId === null) return setFullscreen(null);
      const owner = pageOf(nodeId);
      if (!owner) return;
      setPageId(owner.id);
      setFullscreen((current) => (current === nodeId ? null : nodeId));
    },
    [pageOf],
  );

  useEffect(() => {
    if (reveal === null || revealed.current === reveal) return;
    const el = document.querySelector<HTMLElement>(`section[data-element-id="${CSS.escape(reveal.id)}"]`);
    if (!el) return;
    revealed.current = reveal;
    el.scrollIntoView({ block: "nearest" });
    el.focus({ preventScroll: true });
  }, [reveal, pageId]);

  const accept = useCallback((result: PageData, seq: number) => {
    currentVariables.current = result.variables;
    dataPosted.current = -1;
    setStatus({ kind: "ready", result: { ...result, seq } });
    setRenders(rendersOf(result.charts, seq));
  }, []);

  const load = useCallback(
    async (vars: Record<string, string>, page: string) => {
      const seq = ++requestSeq.current;
      setStatus((s) => (s.kind === "ready" ? s : { kind: "loading" }));
      try {
        const res = await fetch(boot.queryUrl, {
          method: "POST",
          headers: { authorization: `Bearer ${boot.sessionToken}`, "content-type": "application/json" },
          // The charts' sizes as they are now: the answer brings them drawn (a new page's come after).
          body: JSON.stringify({ pageId: page, variables: vars, sizes: sizesNow.current, theme: boot.theme }),
        });
        if (seq !== requestSeq.current) return;
        // The session has ended: Sigma's code-less "Session expired" replaces the workbook, no event.
        if (res.status === 401) return setExpired(true);
        if (!res.ok) {
          const body = (await res.json().catch(() => ({}))) as { code?: unknown; message?: string };
          const message = body.message ?? "The workbook could not be loaded.";
          setStatus({ kind: "error", message });
          messenger.post({ type: "workbook:error", code: sigmaCode(body.code), message });
          return;
        }
        const result = (await res.json()) as PageData;
        if (seq !== requestSeq.current) return;
        accept(result, seq);
      } catch {
        if (seq !== requestSeq.current) return;
        // The request never got an answer: Sigma's NETWORK ("Unable to connect").
        const message = "The workbook could not be reached. Check your connection and reload the page.";
        setStatus({ kind: "error", message });
        messenger.post({ type: "workbook:error", code: "NETWORK", message });
      }
    },
    [boot, messenger, accept],
  );

  const usedInitialData = useRef(false);
  useEffect(() => {
    // The first render used the data that came with the page; later changes fetch.
    if (!usedInitialData.current && boot.initialData && pageId === boot.pageId) {
      usedInitialData.current = true;
      return;
    }
    usedInitialData.current = true;
    void load(variables, pageId);
  }, [load, variables, pageId, boot]);

  const onChartSize = useCallback((nodeId: string, size: ChartSize) => {
    sizesNow.current = { ...sizesNow.current, [nodeId]: size };
    setSizes(sizesNow.current);
  }, []);

  // Charts the server has not drawn at their box's size (first data without sizes, a resize, a rotation,
  // full screen): drawn again for the data shown, only those elements.
  const drawing = useRef("");
  const loaded = status.kind === "ready" ? status.result : undefined;
  useEffect(() => {
    if (!loaded || renders.seq !== loaded.seq) return;
    const wanted = (page?.elements ?? []).filter((e) => {
      const data = loaded.elements[e.id];
      const size = sizes[e.id];
      return (
        isChartElement(e) &&
        data &&
        !data.error &&
        size &&
        !renders.byId[e.id]?.some((r) => sameView(r, size))
      );
    });
    if (wanted.length === 0) return;
    const wantedSizes = Object.fromEntries(wanted.map((e) => [e.id, sizes[e.id] as ChartSize]));
    const key = JSON.stringify([loaded.seq, wantedSizes]);
    if (drawing.current === key) return;
    const seq = loaded.seq;
    const keep = (drawn: Record<string, ChartRender>) =>
      setRenders((r) => {
        if (r.seq !== seq) return r;
        const byId = { ...r.byId };
        for (const [id, render] of Object.entries(drawn)) {
          byId[id] = [...(byId[id] ?? []).filter((x) => !sameView(x, render)), render].slice(-KEEP_RENDERS);
        }
        return { seq, byId };
      });
    // A moment's wait gathers the boxes of one layout change into one request.
    const timer = window.setTimeout(() => {
      drawing.current = key;
      fetch(boot.queryUrl, {
        method: "POST",
        headers: { authorization: `Bearer ${boot.sessionToken}`, "content-type": "application/json" },
        body: JSON.stringify({
          pageId: page?.id,
          variables: loaded.variables,
          sizes: wantedSizes,
          elements: wanted.map((e) => e.id),
          theme: boot.theme,
        }),
      })
        .then(async (res) => {
          if (res.status === 401) return setExpired(true);
          if (!res.ok) throw new Error(String(res.status));
          keep(((await res.json()) as PageData).charts);
        })
        .catch(() =>
          keep(
            Object.fromEntries(
              Object.entries(wantedSizes).map(([id, size]) => [
                id,
                { ...size, error: "This chart could not be drawn." },
              ]),
            ),
          ),
        );
    }, 40);
    return () => window.clearTimeout(timer);
  }, [loaded, renders, sizes, page, boot]);

  // `workbook:dataloaded` once every chart of the data shown is drawn at its box's size (or failed).
  useEffect(() => {
    if (!loaded || renders.seq !== loaded.seq || dataPosted.current === loaded.seq) return;
    const done = (page?.elements ?? []).every((e) => {
      if (!isChartElement(e)) return true;
      const data = loaded.elements[e.id];
      if (!data) return false;
      return data.error !== undefined || renders.byId[e.id]?.some((r) => sameView(r, sizes[e.id]));
    });
    if (!done) return;
    dataPosted.current = loaded.seq;
    messenger.post({ type: "workbook:dataloaded" });
  }, [loaded, renders, sizes, page, messenger]);

  const change = useCallback(
    (updates: Record<string, string>) => {
      const next = { ...currentVariables.current, ...updates };
      currentVariables.current = next;
      setVariables(next);
      messenger.post({ type: "workbook:variables:onchange", workbook: { variables: next } });
    },
    [messenger],
  );

  // Inbound events from the host page (what the SDK's mutation functions send).
  useEffect(
    () =>
      messenger.listen((message) => {
        switch (message.type) {
          case "workbook:variables:update": {
            const updates = Object.fromEntries(
              Object.entries(message.variables).filter(([k]) =>
                boot.workbook.controls.some((c) => c.id === k),
              ),
            );
            change(updates);
            break;
          }
          case "workbook:variables:list":
            messenger.post({ type: "workbook:variables:current", variables: currentVariables.current });
            break;
          case "workbook:fullscreen:update":
            toggleFullscreen(message.nodeId);
            break;
          case "workbook:selectednodeid:update":
            select(message.selectedNodeId, message.nodeType, true);
            break;
        }
      }),
    [messenger, change, select, toggleFullscreen, boot.workbook.controls],
  );

  // `workbook:chart:error` once per element that failed in a result.
  const result = loaded;
  useEffect(() => {
    if (!result) return;
    for (const [nodeId, data] of Object.entries(result.elements)) {
      if (data.error)
        messenger.post({
          type: "workbook:chart:error",
          code: data.code ?? "UNKNOWN",
          message: data.error,
          nodeId,
        });
    }
  }, [result, messenger]);
  const onChartError = useCallback(
    (nodeId: string, message: string) =>
      messenger.post({ type: "workbook:chart:error", code: "UNKNOWN", message, nodeId }),
    [messenger],
  );

  // Page height for hosts that size the frame to the content (:responsive_height=true). Reported from the
  // first render with data (or its error), so the host sizes the frame once, not first to the skeleton.
  const shown = status.kind !== "loading";
  const lastHeight = useRef(0);
  useEffect(() => {
    if (!boot.responsiveHeight || !shown) return;
    // The content's own height: the document's scrollHeight never drops below the frame's height, so a
    // host that grew the frame would never see the page get shorter again.
    const root = document.querySelector<HTMLElement>(".wb-root") ?? document.body;
    const report = () => {
      const h = Math.ceil(root.getBoundingClientRect().height);
      if (h !== lastHeight.current) {
        lastHeight.current = h;
        messenger.post({ type: "workbook:pageheight:onchange", pageHeight: h });
      }
    };
    // A new observer reports the current size at once, then every change.
    const observer = new ResizeObserver(report);
    observer.observe(root);
    return () => observer.disconnect();
  }, [boot.responsiveHeight, messenger, shown]);

  const controls = result?.controls ?? [];

  if (expired) {
    return (
      <main className="wb-root wb-expired">
        <p role="alert">{SESSION_EXPIRED}</p>
      </main>
    );
  }

  return (
    <main className="wb-root" aria-busy={status.kind === "loading"}>
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
      {controls.some((c) => !c.hidden) && (
        <form className="wb-controls" aria-label="Filters" onSubmit={(e) => e.preventDefault()}>
          {controls
            .filter((c) => !c.hidden)
            .map((c) =>
              c.type === "date-range" ? (
                <DateRange key={c.id} control={c} onChange={(v) => change({ [c.id]: v })} />
              ) : c.values ? (
                <label key={c.id} className="wb-control">
                  <span>{c.label}</span>
                  <select
                    multiple
                    value={c.values}
                    onChange={(e) =>
                      change({ [c.id]: encodeChoice([...e.target.selectedOptions].map((o) => o.value)) })
                    }
                    data-control-id={c.id}
                  >
                    {c.options.map((o) => (
                      <option key={o.value} value={o.value}>
                        {o.label}
                      </option>
                    ))}
                  </select>
                </label>
              ) : (
                <label key={c.id} className="wb-control">
                  <span>{c.label}</span>
                  <select
                    value={c.value}
                    onChange={(e) => change({ [c.id]: encodeChoice([e.target.value]) })}
                    data-control-id={c.id}
                  >
                    {c.options.map((o) => (
                      <option key={o.value} value={o.value}>
                        {o.label}
                      </option>
                    ))}
                  </select>
                </label>
              ),
            )}
        </form>
      )}
      {status.kind === "error" && (
        <div role="alert" className="wb-error">
          {status.message}
        </div>
      )}
      <div className="wb-grid">
        {page?.elements.map((e) => {
          const data = result?.elements[e.id];
          const titleId = `t-${e.id}`;
          const descId = `d-${e.id}`;
          const isFull = fullscreen === e.id;
          return (
            <section
              key={e.id}
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
                          isFull
                            ? "M6 2v4H2M10 2v4h4M6 14v-4H2M10 14v-4h4"
                            : "M2 6V2h4M14 6V2h-4M2 10v4h4M14 10v4h-4"
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
                <Chart
                  element={e}
                  rows={data.rows}
                  renders={result?.seq === renders.seq ? renders.byId[e.id] : undefined}
                  onSize={onChartSize}
                  onError={onChartError}
                />
              )}
            </section>
          );
        })}
      </div>
    </main>
  );
}
