import type { Database, Queryable, Row } from "../db/database.ts";
import { withClientScope } from "../db/row-security.ts";
import { dayOf, isoOf, addYears } from "../demo/calendar.ts";
import {
  decodeControlValue,
  encodeControlList,
  encodeControlRange,
  singleValueOf,
  type TControlValue,
} from "./control-values.ts";
import type { TControl, TQuery, TWorkbook } from "./schema.ts";

export interface Option {
  value: string;
  label: string;
}

export interface ResolvedControl {
  id: string;
  type: TControl["type"];
  label: string;
  /**
   * The value shown: the chosen option's value, `min:<date>,max:<date>` for a date range, the encoded list
   * for a multiple choice (its options in `values`).
   */
  value: string;
  /** A multiple choice's chosen options (empty: cleared, no filter). */
  values?: string[];
  options: Option[];
  /** Hidden when there is nothing to choose (a client with one client id). */
  hidden: boolean;
}

export interface ElementResult {
  rows: Row[];
  error?: string;
  /** Why it failed, in Sigma's codes: the query ran out of time, or anything else. */
  code?: "ETIMEDOUT" | "UNKNOWN";
}

export interface QueryResult {
  asOf: string;
  historyStart: string;
  controls: ResolvedControl[];
  /** The controls' values in Sigma's URL-encoded form (control-values.ts), as the page posts them. */
  variables: Record<string, string>;
  elements: Record<string, ElementResult>;
}

/** A value an element's SQL may be bound to: text, or a multiple choice's `text[]`. */
export type BoundValue = string | readonly string[];

/** Binds `:name` parameters to positional ones; values come from `values` by the query's `params` map. */
export function bindQuery(
  q: TQuery,
  values: Record<string, BoundValue>,
): { text: string; params: BoundValue[] } {
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

const ISO_DATE = /^(\d{4}-\d{2}-\d{2})(T[\d:.]+Z?)?$/;

function clampDate(iso: string, min: string, max: string): string {
  return iso < min ? min : iso > max ? max : iso;
}

/**
 * A date-range control's dates from its value: a range `min:<date>,max:<date>` (a blank or `:null` side is
 * open, a date-time counts by its date), `:null` (cleared: the whole history), or one of this server's
 * presets (`mtd`, `qtd`, `ytd`, `1y`, `t12m`, `all`); anything else, or nothing, is the control's default.
 */
export function parseDateRange(
  value: TControlValue | undefined,
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
  let range: { start: string; end: string } | undefined;
  if (value?.kind === "null") range = { start: historyStart, end: asOf };
  else if (value?.kind === "list" && value.values.length === 1)
    range = presetRange(value.values[0] as string);
  else if (value?.kind === "range") {
    const side = (s: string | null, open: string) => (s === null ? open : ISO_DATE.exec(s)?.[1]);
    const start = side(value.min, historyStart);
    const end = side(value.max, asOf);
    if (start !== undefined && end !== undefined) range = { start, end };
  }
  range ??= presetRange(preset) as { start: string; end: string };
  let start = clampDate(range.start, historyStart, asOf);
  let end = clampDate(range.end, historyStart, asOf);
  if (start > end) [start, end] = [end, start];
  return { start, end };
}

/** The option chosen by a single-value control's value, else the first option (its default). */
function chosen(options: Option[], raw: string | undefined, fallback: string): string {
  const wanted = singleValueOf(raw);
  return options.some((o) => o.value === wanted) ? (wanted as string) : (options[0]?.value ?? fallback);
}

/** A multiple choice's values that are options, each once, in the order given; none when cleared. */
function chosenMany(options: Option[], raw: string | undefined): string[] {
  const value = raw === undefined ? undefined : decodeControlValue(raw);
  const wanted = value?.kind === "list" ? value.values : [];
  return [...new Set(wanted)].filter((v) => options.some((o) => o.value === v));
}

function resolved(c: TControl, value: string, options: Option[]): ResolvedControl {
  return {
    id: c.id,
    type: c.type,
    label: c.label,
    value,
    options,
    // A client with one client has nothing to choose.
    hidden: c.type === "client-select" && options.length <= 1,
  };
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
    const values: Record<string, BoundValue> = { asOf, historyStart };
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
        value = chosen(options, raw, "none");
      } else if (c.type === "list-select") {
        const bound = bindQuery(c.options, values);
        const res = await q.query<Option>(bound.text, bound.params);
        options = res.rows.map((r) => ({ value: String(r.value), label: String(r.label) }));
        if (c.multiple) {
          const picks = chosenMany(options, raw);
          values[c.id] = picks;
          canonical[c.id] = picks.length ? encodeControlList(picks) : ":null";
          controls.push({ ...resolved(c, canonical[c.id] as string, options), values: picks });
          continue;
        }
        if (c.includeAll) options = [{ value: "all", label: c.allLabel }, ...options];
        value = chosen(options, raw, "none");
      } else if (c.type === "year-select") {
        const res = await q.query<{ y: number }>(
          "select distinct extract(year from d)::int as y from demo.trading_days order by y desc",
        );
        options = res.rows.map((r) => ({ value: String(r.y), label: String(r.y) }));
        value = chosen(options, raw, asOf.slice(0, 4));
        values[`${c.id}.start`] = `${value}-01-01`;
        values[`${c.id}.end`] = `${value}-12-31` < asOf ? `${value}-12-31` : asOf;
      } else {
        const range = parseDateRange(
          raw === undefined ? undefined : decodeControlValue(raw),
          c.default,
          asOf,
          historyStart,
        );
        value = encodeControlRange(range.start, range.end);
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
      canonical[c.id] = c.type === "date-range" ? value : encodeControlList([value]);
      controls.push(resolved(c, value, options));
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
        // 57014: the statement timeout cancelled the query.
        elements[e.id] =
          (error as { code?: string }).code === "57014"
            ? { rows: [], error: "This element took too long to load.", code: "ETIMEDOUT" }
            : { rows: [], error: "This element could not be loaded.", code: "UNKNOWN" };
      }
    }
    return { asOf, historyStart, controls, variables: canonical, elements };
  });
}

export type { Queryable };
