import type { Database, Queryable, Row } from "../db/database.ts";
import { withClientScope } from "../db/row-security.ts";
import { dayOf, isoOf, addYears } from "../demo/calendar.ts";
import type { TControl, TQuery, TWorkbook } from "./schema.ts";

export interface Option {
  value: string;
  label: string;
}

export interface ResolvedControl {
  id: string;
  type: TControl["type"];
  label: string;
  value: string;
  options: Option[];
  /** Hidden when there is nothing to choose (a client with one client id). */
  hidden: boolean;
}

export interface ElementResult {
  rows: Row[];
  error?: string;
}

export interface QueryResult {
  asOf: string;
  historyStart: string;
  controls: ResolvedControl[];
  /** Canonical control values, as posted in `workbook:variables:onchange`. */
  variables: Record<string, string>;
  elements: Record<string, ElementResult>;
}

/** Binds `:name` parameters to positional ones; values come from `values` by the query's `params` map. */
export function bindQuery(q: TQuery, values: Record<string, string>): { text: string; params: string[] } {
  const order: string[] = [];
  const text = q.sql.replace(/(?<![:\w]):([a-z_][a-z0-9_]*)/gi, (_m, name: string) => {
    let index = order.indexOf(name);
    if (index < 0) {
      order.push(name);
      index = order.length - 1;
    }
    return `$${index + 1}`;
  });
  const params = order.map((name) => {
    const source = q.params[name] as string;
    const value = values[source];
    if (value === undefined) throw new Error(`no value for parameter source ${source}`);
    return value;
  });
  return { text, params };
}

const ISO = /^\d{4}-\d{2}-\d{2}$/;

function clampDate(iso: string, min: string, max: string): string {
  return iso < min ? min : iso > max ? max : iso;
}

/** Sigma's date-range URL form `min:YYYY-MM-DD,max:YYYY-MM-DD` (either side optional), or a preset. */
export function parseDateRange(
  raw: string | undefined,
  preset: string,
  asOf: string,
  historyStart: string,
): { start: string; end: string } {
  const presetRange = (p: string): { start: string; end: string } | undefined => {
    const end = asOf;
    switch (p) {
      case "mtd":
        return { start: `${asOf.slice(0, 8)}01`, end };
      case "qtd": {
        const month = Number(asOf.slice(5, 7));
        const q = String(Math.floor((month - 1) / 3) * 3 + 1).padStart(2, "0");
        return { start: `${asOf.slice(0, 4)}-${q}-01`, end };
      }
      case "ytd":
        return { start: `${asOf.slice(0, 4)}-01-01`, end };
      case "1y":
      case "t12m":
        return { start: isoOf(addYears(dayOf(asOf), -1) + 1), end };
      case "all":
        return { start: historyStart, end };
      default:
        return undefined;
    }
  };
  let range = presetRange((raw ?? "").trim().toLowerCase());
  if (!range && raw) {
    const parts = Object.fromEntries(
      raw.split(",").map((p) => {
        const [k, ...v] = p.split(":");
        return [k?.trim().toLowerCase(), v.join(":").trim()];
      }),
    );
    const start = ISO.test(parts.min ?? "") ? (parts.min as string) : historyStart;
    const end = ISO.test(parts.max ?? "") ? (parts.max as string) : asOf;
    if (ISO.test(parts.min ?? "") || ISO.test(parts.max ?? "")) range = { start, end };
  }
  range ??= presetRange(preset) as { start: string; end: string };
  let start = clampDate(range.start, historyStart, asOf);
  let end = clampDate(range.end, historyStart, asOf);
  if (start > end) [start, end] = [end, start];
  return { start, end };
}

/**
 * Resolves the controls in order (a control's options may use earlier controls), then runs the page's element
 * queries (or the `only` ones), all inside one client-scoped, read-only, rolled-back transaction.
 */
export async function runWorkbookPage(
  db: Database,
  readerRole: string,
  clientIds: readonly string[],
  workbook: TWorkbook,
  pageId: string | undefined,
  variables: Record<string, string>,
  log: (error: unknown, elementId: string) => void,
  onTiming?: (id: string, ms: number) => void,
  /** Only these elements of the page (e.g. the charts the page draws again at a new size); all by default. */
  only?: ReadonlySet<string>,
): Promise<QueryResult> {
  const page =
    workbook.pages.find((p) => p.id === pageId) ?? (workbook.pages[0] as TWorkbook["pages"][number]);
  return withClientScope(db, readerRole, clientIds, async (q) => {
    const meta = await q.query<{ key: string; value: string }>(
      "select key, value from demo.meta where key in ('as_of', 'history_start')",
    );
    const m = Object.fromEntries(meta.rows.map((r) => [r.key, r.value]));
    const asOf = m.as_of as string;
    const historyStart = m.history_start as string;
    const values: Record<string, string> = { asOf, historyStart };
    const controls: ResolvedControl[] = [];
    const canonical: Record<string, string> = {};

    for (const c of workbook.controls) {
      const raw = variables[c.id];
      let options: Option[] = [];
      let value = "";
      if (c.type === "client-select") {
        const res = await q.query<Option>(
          `select client_id as value, first_name || ' ' || last_name || ' (' || client_id || ')' as label
             from demo.clients order by client_id`,
        );
        options = res.rows;
        if (c.includeAll && options.length > 1)
          options = [{ value: "all", label: "All clients" }, ...options];
        value = options.some((o) => o.value === raw) ? (raw as string) : (options[0]?.value ?? "none");
      } else if (c.type === "list-select") {
        const bound = bindQuery(c.options, values);
        const res = await q.query<Option>(bound.text, bound.params);
        options = res.rows.map((r) => ({ value: String(r.value), label: String(r.label) }));
        if (c.includeAll) options = [{ value: "all", label: c.allLabel }, ...options];
        value = options.some((o) => o.value === raw) ? (raw as string) : (options[0]?.value ?? "none");
      } else if (c.type === "year-select") {
        const res = await q.query<{ y: number }>(
          "select distinct extract(year from d)::int as y from demo.trading_days order by y desc",
        );
        options = res.rows.map((r) => ({ value: String(r.y), label: String(r.y) }));
        value = options.some((o) => o.value === raw)
          ? (raw as string)
          : (options[0]?.value ?? asOf.slice(0, 4));
        values[`${c.id}.start`] = `${value}-01-01`;
        values[`${c.id}.end`] = `${value}-12-31` < asOf ? `${value}-12-31` : asOf;
      } else {
        const range = parseDateRange(raw, c.default, asOf, historyStart);
        value = `min:${range.start},max:${range.end}`;
        // Elements read values on trading days: the end is the last trading day on or before it, the base
        // (the day returns are measured from) the last trading day before the start.
        const days = await q.query<{ base: string | null; end: string | null }>(
          `select (select max(d)::text from demo.trading_days where d < $1::date) as base,
                  (select max(d)::text from demo.trading_days where d <= $2::date) as end`,
          [range.start, range.end],
        );
        values[`${c.id}.start`] = range.start;
        values[`${c.id}.end`] = days.rows[0]?.end ?? range.end;
        values[`${c.id}.base`] = days.rows[0]?.base ?? range.start;
      }
      values[c.id] = value;
      canonical[c.id] = value;
      controls.push({
        id: c.id,
        type: c.type,
        label: c.label,
        value,
        options,
        hidden: c.type === "client-select" && options.length <= 1,
      });
    }

    const elements: Record<string, ElementResult> = {};
    for (const e of page.elements) {
      if (only && !only.has(e.id)) continue;
      // PGlite runs its queries in this thread, one promise after another: without a turn of the event loop
      // between elements, no other request (such as the page's layout report) is read until all are done.
      await new Promise((resolve) => setImmediate(resolve));
      const bound = bindQuery(e.query, values);
      await q.exec("savepoint element");
      try {
        const started = performance.now();
        const res = await q.query(bound.text, bound.params);
        onTiming?.(e.id, performance.now() - started);
        elements[e.id] = { rows: res.rows };
        await q.exec("release savepoint element");
      } catch (error) {
        await q.exec("rollback to savepoint element");
        log(error, e.id);
        elements[e.id] = { rows: [], error: "This element could not be loaded." };
      }
    }
    return { asOf, historyStart, controls, variables: canonical, elements };
  });
}

export type { Queryable };
