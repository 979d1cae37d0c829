import { z } from "zod";

/**
 * A workbook is data: pages of elements on a 12-column grid, and controls whose values (settable from the
 * URL as `<ControlId>=<value>` and by `workbook:variables:update`) are bound to the elements' SQL parameters.
 * Element SQL uses named parameters (`:name`) only; each is bound to a control value or a built-in, never
 * spliced into the text.
 */

const id = z.string().regex(/^[A-Za-z][A-Za-z0-9_-]{0,63}$/, "ids are letters, digits, - and _");
const field = z.string().regex(/^[a-z_][a-z0-9_]*$/, "fields are lower-case SQL column names");

export const FORMATS = [
  "currency",
  "currency0",
  "percent",
  "number",
  "integer",
  "bps",
  "date",
  "text",
  "shares",
] as const;
export const ZFormatSchema = z.enum(FORMATS);
export type TFormat = z.infer<typeof ZFormatSchema>;

/** Where a parameter's value comes from: a control (`Period.start` for a part of it) or a built-in. */
export const BUILTIN_SOURCES = ["asOf", "historyStart"] as const;
const ZParamSourceSchema = z.string().regex(/^([A-Za-z][A-Za-z0-9_-]*)(\.(start|end|base))?$/);

const FORBIDDEN_SQL = [
  /;\s*\S/, // more than one statement
  /\bset_config\b/i,
  /\b(set|reset)\s+(local\s+|session\s+)?(role|session)\b/i,
  /\bcurrent_setting\b/i,
  /\brls\./i,
  /\banalytics\./i,
  /\bpg_(sleep|read|ls|stat_file|terminate|cancel)/i,
  /\b(insert|update|delete|truncate|drop|alter|create|grant|revoke|copy|call|do|lock|vacuum|listen|notify)\b/i,
];

export const ZQuerySchema = z
  .object({
    sql: z.string().min(1),
    params: z.record(z.string().regex(/^[a-z_][a-z0-9_]*$/), ZParamSourceSchema).default({}),
  })
  .superRefine((q, ctx) => {
    const text = q.sql.trim();
    if (!/^(select|with)\b/i.test(text)) ctx.addIssue({ code: "custom", message: "SQL must be one SELECT" });
    for (const re of FORBIDDEN_SQL) {
      if (re.test(text)) ctx.addIssue({ code: "custom", message: `SQL must not match ${re}` });
    }
    const used = new Set([...text.matchAll(/(?<![:\w]):([a-z_][a-z0-9_]*)/gi)].map((m) => m[1] as string));
    for (const name of used) {
      if (!(name in q.params))
        ctx.addIssue({ code: "custom", message: `parameter :${name} is not bound in params` });
    }
    for (const name of Object.keys(q.params)) {
      if (!used.has(name)) ctx.addIssue({ code: "custom", message: `param ${name} is not used in the SQL` });
    }
  });
export type TQuery = z.infer<typeof ZQuerySchema>;

export const ZControlSchema = z.discriminatedUnion("type", [
  z.object({
    id,
    type: z.literal("client-select"),
    label: z.string(),
    /** Offer "All clients" to users with several clients (sums across them). */
    includeAll: z.boolean().default(false),
  }),
  z.object({
    id,
    type: z.literal("list-select"),
    label: z.string(),
    /**
     * Several values at once: bound as a `text[]` (write `:name::text[]`), empty when nothing is chosen
     * (the control cleared: no filter). `includeAll` does not apply.
     */
    multiple: z.boolean().default(false),
    includeAll: z.boolean().default(true),
    allLabel: z.string().default("All"),
    /** Returns `value` and `label` columns; may use earlier controls. */
    options: ZQuerySchema,
  }),
  z.object({
    id,
    type: z.literal("date-range"),
    label: z.string(),
    default: z.enum(["mtd", "qtd", "ytd", "1y", "t12m", "all"]).default("ytd"),
  }),
  z.object({ id, type: z.literal("year-select"), label: z.string() }),
]);
export type TControl = z.infer<typeof ZControlSchema>;

const base = {
  id,
  title: z.string().min(1),
  /** What the element shows, for screen readers (charts) and as a caption. */
  description: z.string().optional(),
  /** Columns out of 12 on wide screens; every element is full width on narrow ones. */
  span: z.number().int().min(1).max(12).default(12),
  height: z.number().int().min(80).max(1200).optional(),
  query: ZQuerySchema,
};

const ZSeriesSchema = z.object({ field, name: z.string(), format: ZFormatSchema.optional() });

export const ZElementSchema = z.discriminatedUnion("type", [
  z.object({
    ...base,
    type: z.literal("kpi"),
    value: field,
    format: ZFormatSchema,
    /** A signed figure under the value (green up, red down), e.g. the return vs the benchmark. */
    delta: z.object({ field, format: ZFormatSchema, label: z.string().optional() }).optional(),
    /** Small labelled figures under the value. */
    details: z.array(z.object({ field, format: ZFormatSchema, label: z.string() })).default([]),
    caption: field.optional(),
  }),
  z.object({
    ...base,
    type: z.enum(["line", "area", "bar"]),
    x: field,
    xFormat: ZFormatSchema.default("text"),
    series: z.array(ZSeriesSchema).min(1),
    yFormat: ZFormatSchema.default("number"),
    stack: z.boolean().default(false),
    horizontal: z.boolean().default(false),
  }),
  z.object({ ...base, type: z.literal("pie"), name: field, value: field, format: ZFormatSchema }),
  z.object({
    ...base,
    type: z.literal("table"),
    columns: z
      .array(
        z.object({
          field,
          label: z.string(),
          format: ZFormatSchema.default("text"),
          /** Colour negative numbers red and positive green (gains and losses). */
          signed: z.boolean().default(false),
        }),
      )
      .min(1),
    sort: z.object({ field, direction: z.enum(["asc", "desc"]) }).optional(),
    emptyMessage: z.string().default("No rows."),
    /** Rows per page: a long table pages instead of scrolling inside the page. */
    pageSize: z.number().int().min(5).max(200).default(15),
  }),
]);
export type TElement = z.infer<typeof ZElementSchema>;
/** An element as the browser receives it (without its query). */
export type TPublicElement = TElement extends infer E
  ? E extends unknown
    ? Omit<E, "query">
    : never
  : never;

export const ZWorkbookSchema = z
  .object({
    name: z.string().min(1).max(100),
    urlId: z.string().regex(/^[A-Za-z0-9]{22,24}$/),
    description: z.string().optional(),
    controls: z.array(ZControlSchema).default([]),
    pages: z
      .array(
        z.object({
          id,
          title: z.string().min(1),
          elements: z.array(ZElementSchema).min(1),
        }),
      )
      .min(1),
  })
  .superRefine((wb, ctx) => {
    const controlIds = new Set<string>();
    const check = (q: TQuery, where: string, allowed: Set<string>) => {
      for (const source of Object.values(q.params)) {
        const root = source.split(".")[0] as string;
        if (!(BUILTIN_SOURCES as readonly string[]).includes(root) && !allowed.has(root)) {
          ctx.addIssue({ code: "custom", message: `${where}: unknown parameter source ${source}` });
        }
      }
    };
    for (const c of wb.controls) {
      if (controlIds.has(c.id)) ctx.addIssue({ code: "custom", message: `duplicate control id ${c.id}` });
      if (c.type === "list-select") check(c.options, `control ${c.id}`, new Set(controlIds));
      controlIds.add(c.id);
    }
    const elementIds = new Set<string>();
    for (const p of wb.pages) {
      for (const e of p.elements) {
        if (elementIds.has(e.id)) ctx.addIssue({ code: "custom", message: `duplicate element id ${e.id}` });
        elementIds.add(e.id);
        check(e.query, `element ${e.id}`, controlIds);
      }
    }
  });
export type TWorkbook = z.infer<typeof ZWorkbookSchema>;

/** The workbook as the browser sees it: no SQL. */
export function publicWorkbook(wb: TWorkbook) {
  return {
    name: wb.name,
    urlId: wb.urlId,
    description: wb.description,
    controls: wb.controls.map((c) => ({ id: c.id, type: c.type, label: c.label })),
    pages: wb.pages.map((p) => ({
      id: p.id,
      title: p.title,
      elements: p.elements.map(({ query: _query, ...rest }) => rest),
    })),
  };
}
export type TPublicWorkbook = ReturnType<typeof publicWorkbook>;
