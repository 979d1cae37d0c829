import { useCallback, useEffect, useRef, useState, type RefObject } from "react";
import { sameView, type ChartSize } from "../src/charts/contract.ts";
import type { EmbedBoot, PageData } from "../src/embed/boot.ts";
import { SIGMA_ERROR_CODES, type TSigmaErrorCode } from "../src/error-codes.ts";
import type { TPublicWorkbook } from "../src/workbooks/schema.ts";
import { isChartElement, redrawCharts, rendersOf, type Loaded, type Renders } from "./drawings.ts";
import type { Messenger } from "./messages.ts";

type Status = { kind: "loading" } | { kind: "ready"; result: Loaded } | { kind: "error"; message: string };

/** A failed answer's code when it is one of Sigma's, else UNKNOWN. */
const sigmaCode = (code: unknown): TSigmaErrorCode =>
  (SIGMA_ERROR_CODES as readonly unknown[]).includes(code) ? (code as TSigmaErrorCode) : "UNKNOWN";

/**
 * The page's data and its charts: the data that came with the page, then fetched whenever the page or the
 * control values change; charts drawn again at their boxes' sizes; `workbook:dataloaded` once all are drawn,
 * `workbook:error` when the data fails, and the session's end.
 */
export function usePageData(
  boot: EmbedBoot,
  messenger: Messenger,
  {
    variables,
    currentVariablesRef,
  }: { variables: Record<string, string>; currentVariablesRef: RefObject<Record<string, string>> },
  { pageId, page }: { pageId: string; page: TPublicWorkbook["pages"][number] | undefined },
) {
  // The first page's data (and its charts) came with the page: shown by the first render.
  const [status, setStatus] = useState<Status>(() =>
    boot.initialData ? { kind: "ready", result: { ...boot.initialData, seq: 0 } } : { kind: "loading" },
  );
  const dataPosted = useRef<number>(-1);
  const requestSeq = useRef(0);
  const [renders, setRenders] = useState<Renders>(() => rendersOf(boot.initialData?.charts ?? {}, 0));
  /** Each chart's box as last measured (the size its drawing must have). */
  const [sizes, setSizes] = useState<Record<string, ChartSize>>({});
  const sizesNow = useRef(sizes);
  /** The session ended (its JWT's exp passed): the page shows Sigma's "Session expired" and nothing else. */
  const [expired, setExpired] = useState(false);

  const accept = useCallback(
    (result: PageData, seq: number) => {
      currentVariablesRef.current = result.variables;
      dataPosted.current = -1;
      setStatus({ kind: "ready", result: { ...result, seq } });
      setRenders(rendersOf(result.charts, seq));
    },
    [currentVariablesRef],
  );

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
  useEffect(
    () => redrawCharts({ boot, page, loaded, renders, sizes, drawing, setRenders, setExpired }),
    [loaded, renders, sizes, page, boot],
  );

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

  return { status, loaded, renders, expired, onChartSize };
}
