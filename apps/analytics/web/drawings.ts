import type { Dispatch, RefObject, SetStateAction } from "react";
import { sameView, type ChartRender, type ChartSize } from "../src/charts/contract.ts";
import type { EmbedBoot, PageData } from "../src/embed/boot.ts";
import type { TPublicElement, TPublicWorkbook } from "../src/workbooks/schema.ts";

/** A page's data as shown, numbered by the request that brought it (0: the data that came with the page). */
export type Loaded = PageData & { seq: number };
/** The server's drawings of the charts for the data of `seq`, newest last per element. */
export type Renders = { seq: number; byId: Record<string, ChartRender[]> };
type Page = TPublicWorkbook["pages"][number];

export const isChartElement = (e: TPublicElement) => e.type !== "kpi" && e.type !== "table";
/** Drawings kept per element: its sizes in and out of full screen, and a resize or two. */
const KEEP_RENDERS = 4;
export const rendersOf = (charts: Record<string, ChartRender>, seq: number): Renders => ({
  seq,
  byId: Object.fromEntries(Object.entries(charts).map(([id, r]) => [id, [r]])),
});

interface Redraw {
  boot: EmbedBoot;
  page: Page | undefined;
  loaded: Loaded | undefined;
  renders: Renders;
  sizes: Record<string, ChartSize>;
  /** The request last sent (its data and sizes), so that one layout change asks once. */
  drawing: RefObject<string>;
  setRenders: Dispatch<SetStateAction<Renders>>;
  setExpired: (expired: boolean) => void;
}

/**
 * Charts the server has not drawn at their box's size (first data without sizes, a resize, a rotation,
 * full screen): drawn again for the data shown, only those elements. The effect's body; returns its cleanup.
 */
export function redrawCharts({
  boot,
  page,
  loaded,
  renders,
  sizes,
  drawing,
  setRenders,
  setExpired,
}: Redraw) {
  if (!loaded || renders.seq !== loaded.seq) return;
  const wanted = (page?.elements ?? []).filter((e) => {
    const data = loaded.elements[e.id];
    const size = sizes[e.id];
    return (
      isChartElement(e) && data && !data.error && size && !renders.byId[e.id]?.some((r) => sameView(r, size))
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
}
