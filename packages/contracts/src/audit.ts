import { z } from "zod";
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, queryNumber, storableText } from "./fields.ts";

// ---- The audit log (/admin/audit): the trail of every change, sign-in and refusal, newest first ----

/** One row of the audit trail, with what it changed (before/after) and its other details. */
export const ZAuditEntrySchema = z.object({
  id: z.number().int(),
  /** ISO time (UTC, milliseconds). */
  occurred_at: z.string(),
  actor_user_id: z.string().nullable(),
  actor_email: z.string().nullable(),
  action: z.string(),
  outcome: z.string(),
  target_type: z.string().nullable(),
  target_id: z.string().nullable(),
  ip: z.string().nullable(),
  user_agent: z.string().nullable(),
  request_id: z.string().nullable(),
  before: z.unknown(),
  after: z.unknown(),
  details: z.unknown(),
  /**
   * Position in the hash chain (decisions 007, 023); null for rows written before the chain existed, and
   * for a row written in the last moment, until the sealer gives it its place.
   */
  chain_seq: z.number().int().nullable(),
});
export type TAuditEntry = z.infer<typeof ZAuditEntrySchema>;

/**
 * Matching rows are counted up to this many for the list (`X-Total-Count`, with `X-Total-Count-Capped: true`
 * beyond it), so a page stays fast whatever the filter matches (DEVIATIONS D50). The CSV export counts them all.
 */
export const AUDIT_COUNT_CAP = 10_000;

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * A point in time: an ISO date-time with offset (`2026-11-25T00:00:00+01:00`), or a date (`2026-11-25`),
 * read as that day in UTC. `to` with a date includes the whole day.
 */
const instant = (name: "from" | "to") =>
  z
    .string({ error: `${name} must be a date.` })
    .check(storableText(name))
    .trim()
    .refine(
      (raw) =>
        (DATE_ONLY.test(raw) || z.iso.datetime({ offset: true }).safeParse(raw).success) && isReal(raw),
      `${name} must be a date (YYYY-MM-DD) or an ISO date and time with its offset.`,
    )
    .transform((raw) => {
      if (!DATE_ONLY.test(raw)) return new Date(raw);
      const day = new Date(`${raw}T00:00:00Z`);
      return name === "to" ? new Date(day.getTime() + 86_400_000) : day;
    });

function isReal(raw: string): boolean {
  const date = new Date(DATE_ONLY.test(raw) ? `${raw}T00:00:00Z` : raw);
  if (Number.isNaN(date.getTime())) return false;
  // 2026-02-31 is not a day: Date would roll it over to March.
  return !DATE_ONLY.test(raw) || date.toISOString().slice(0, 10) === raw;
}

/** An audit row id used as a keyset cursor: the page starts just past that row. */
const cursor = (name: string) =>
  queryNumber(name, 1, Number.MAX_SAFE_INTEGER, `${name} is out of range.`).optional();

/** The filters of the audit log; the list and the CSV export take the same ones. */
export const auditFilterShape = {
  /** A person's sign-in email: rows they did, and rows about their account, client or employee record. */
  person: z
    .string({ error: "person must be an email address." })
    .check(storableText("person"))
    .trim()
    .toLowerCase()
    .max(254, "person must be at most 254 characters.")
    .pipe(z.email("person must be an email address."))
    .optional(),
  action: z
    .string({ error: "action must be text." })
    .trim()
    .regex(/^[a-z][a-z0-9_]*(\.[a-z0-9_]+)*$/, "action must be an action name such as client.updated.")
    .max(64, "action must be at most 64 characters.")
    .optional(),
  outcome: z
    .string({ error: "outcome must be text." })
    .trim()
    .regex(/^[a-z_]{1,32}$/, "outcome must be an outcome such as success or denied.")
    .optional(),
  from: instant("from").optional(),
  to: instant("to").optional(),
};

const fromBeforeTo = (q: { from?: Date | undefined; to?: Date | undefined }) =>
  !q.from || !q.to || q.from < q.to;
const FROM_BEFORE_TO = { message: "from must be earlier than to.", path: ["from"] };

/**
 * GET /api/admin/audit: newest first, `limit` rows (default 50, max 500). Paging is by keyset: `before=<id>`
 * gives the rows older than that row, `after=<id>` the rows newer than it (the Link header names both).
 */
export const ZAuditListQuerySchema = z
  .strictObject(
    {
      limit: queryNumber("limit", 1, MAX_PAGE_SIZE, `limit must be at most ${MAX_PAGE_SIZE}.`).default(
        DEFAULT_PAGE_SIZE,
      ),
      before: cursor("before"),
      after: cursor("after"),
      ...auditFilterShape,
    },
    {
      error: (iss) =>
        iss.code === "unrecognized_keys"
          ? `Unknown query parameter${iss.keys.length > 1 ? "s" : ""}: ${iss.keys.join(", ")}.`
          : undefined,
    },
  )
  .refine((q) => q.before === undefined || q.after === undefined, {
    message: "Give before or after, not both.",
    path: ["after"],
  })
  .refine(fromBeforeTo, FROM_BEFORE_TO);
export type TAuditListQuery = z.input<typeof ZAuditListQuerySchema>;

/** GET /api/admin/audit.csv: every row the filters match. */
export const ZAuditExportQuerySchema = z
  .strictObject(auditFilterShape, {
    error: (iss) =>
      iss.code === "unrecognized_keys"
        ? `Unknown query parameter${iss.keys.length > 1 ? "s" : ""}: ${iss.keys.join(", ")}.`
        : undefined,
  })
  .refine(fromBeforeTo, FROM_BEFORE_TO);
export type TAuditExportQuery = z.input<typeof ZAuditExportQuerySchema>;

/** GET /api/admin/audit/vocabulary: the action names and outcomes the trail uses, for the filters. */
export const ZAuditVocabularySchema = z.object({
  actions: z.array(z.string()),
  outcomes: z.array(z.string()),
});
export type TAuditVocabulary = z.infer<typeof ZAuditVocabularySchema>;

/** GET /api/admin/audit/verify: whether the hash chain holds (`npm run audit:verify`, decision 007). */
export const ZAuditVerificationSchema = z.object({
  ok: z.boolean(),
  rows_checked: z.number().int(),
  unchained_rows: z.number().int(),
  /** Rows written and checked against their own MAC, waiting for their seal (decision 023). */
  unsealed_rows: z.number().int(),
  last_seq: z.number().int(),
  last_hash: z.string(),
  first_bad: z
    .object({ id: z.number().int().nullable(), seq: z.number().int().nullable(), reason: z.string() })
    .nullable(),
  /** When this result was computed (the check walks the whole chain, so it is reused for a while). */
  checked_at: z.string(),
  /** A newer check is under way. */
  refreshing: z.boolean(),
});
export type TAuditVerification = z.infer<typeof ZAuditVerificationSchema>;
