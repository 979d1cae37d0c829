// The field rules every request body and list query shares (people, workbooks, the audit log, settings).
import { z } from "zod";
import { CANONICAL_ID, MAX_ID, textProblem, type TextRules } from "./text.ts";

/** Spec §9: the privilege options, in the order the forms show them. */
export const PRIVILEGES = ["Build", "Analyze", "Act", "View"] as const;
export type TPrivilege = (typeof PRIVILEGES)[number];

export const ALL_FIELDS_REQUIRED = "All fields are required.";

export const missing = (input: unknown) => input === undefined || input === null || input === "";

/**
 * The shared text rules (`text.ts`: no NUL or control characters, no line breaks in a one-line field, no
 * broken surrogates) as a zod check naming the field. Runs before `.trim()`, so a trailing line break is
 * refused rather than silently cut.
 */
export const storableText =
  (label: string, rules?: TextRules) =>
  (ctx: z.core.ParsePayload<string>): void => {
    const problem = textProblem(ctx.value, label, rules);
    if (problem) ctx.issues.push({ code: "custom", message: problem, input: ctx.value });
  };

/** A required text field: absent or blank → the spec's 'All fields are required.'. */
export const requiredText = (max: number, label: string) =>
  z
    .string({ error: (iss) => (missing(iss.input) ? ALL_FIELDS_REQUIRED : `${label} must be text.`) })
    .check(storableText(label))
    .trim()
    .min(1, ALL_FIELDS_REQUIRED)
    .max(max, `${label} must be at most ${max} characters.`);

export const ZPrivilegeSchema = z.enum(PRIVILEGES, {
  error: (iss) =>
    missing(iss.input) ? ALL_FIELDS_REQUIRED : `Privilege must be one of ${PRIVILEGES.join(", ")}.`,
});

/** A request body: absent → 'All fields are required.'; unknown fields are refused by name. */
export const requestBody = <T extends z.core.$ZodLooseShape>(shape: T) =>
  z.strictObject(shape, {
    error: (iss) => {
      if (iss.code === "invalid_type") {
        return missing(iss.input) ? ALL_FIELDS_REQUIRED : "The request body must be a JSON object.";
      }
      if (iss.code === "unrecognized_keys")
        return `Unknown field${iss.keys.length > 1 ? "s" : ""}: ${iss.keys.join(", ")}.`;
      return undefined;
    },
  });

/** Business ids: letters, digits and - _ . only, so they read well in URLs, exports and Sigma. */
export const businessId = (label: string) =>
  requiredText(64, label).regex(
    /^[A-Za-z0-9][A-Za-z0-9._-]*$/,
    `${label} may use letters, digits, '.', '_' and '-' only.`,
  );

export const emailField = z
  .string({ error: (iss) => (missing(iss.input) ? ALL_FIELDS_REQUIRED : "Email must be text.") })
  .check(storableText("Email"))
  .trim()
  .min(1, ALL_FIELDS_REQUIRED)
  .max(254, "Email must be at most 254 characters.")
  .pipe(z.email("Enter a valid email address."))
  // Sigma rejects whitespace and underscores in an embed user's email (the JWT `sub`).
  .refine((e) => !e.includes("_"), "Email addresses with an underscore cannot be used with Sigma embedding.")
  .transform((e) => e.toLowerCase());

export const passwordField = z
  .string({ error: (iss) => (missing(iss.input) ? ALL_FIELDS_REQUIRED : "Password must be text.") })
  .check(storableText("Password"))
  .min(1, ALL_FIELDS_REQUIRED)
  .min(8, "Password must be at least 8 characters.")
  .max(128, "Password must be at most 128 characters.");

/** A JSON body id: a whole number from 1 to PostgreSQL's integer maximum (a string such as "7" is refused). */
export const positiveId = (label: string) =>
  z
    .number({ error: `${label} must be numbers.` })
    .int(`${label} must be whole numbers.`)
    .positive(`${label} must be positive.`)
    .max(MAX_ID, `${label} must be at most ${MAX_ID}.`);

/**
 * A path id (`/deleteclient/{c_id}`): canonical decimal digits only, so `0x10`, `1.0`, `1e3`, ` 7` and `007`
 * are refused rather than read as another number; beyond PostgreSQL's integer range → 400.
 */
export const pathId = (name: string) =>
  z.string({ error: `${name} is required.` }).transform((raw, ctx) => {
    if (CANONICAL_ID.test(raw) && Number(raw) <= MAX_ID) return Number(raw);
    ctx.issues.push({ code: "custom", message: pathIdProblem(raw, name), input: raw });
    return z.NEVER;
  });

function pathIdProblem(raw: string, name: string): string {
  if (/^[0-9]+$/.test(raw)) {
    if (/^0+$/.test(raw)) return `${name} must be a positive number.`;
    if (raw.startsWith("0")) return `${name} must be written without leading zeros.`;
    return `${name} is out of range.`;
  }
  if (/^-[0-9]+$/.test(raw)) return `${name} must be a positive number.`;
  if (/^-?[0-9]+\.[0-9]+$/.test(raw)) return `${name} must be a whole number.`;
  return `${name} must be a number.`;
}

export const idList = (label: string, max: number) =>
  z
    .array(positiveId(label), { error: `${label} must be a list of numbers.` })
    .max(max, `At most ${max} ${label.toLowerCase()} can be assigned at once.`)
    .transform((ids) => [...new Set(ids)]);

// ---- Answers and list queries ----

export const ZEmbedDataSchema = z.object({ embedUrl: z.string().nullable() });
export type TEmbedData = z.infer<typeof ZEmbedDataSchema>;

export const ZMessageSchema = z.object({ message: z.string() });

export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 500;

/** A whole-number query parameter written with digits only (no `0x10`, `1.0`, `1e3` or spaces). */
export const queryNumber = (name: string, min: number, max: number, tooLarge: string) =>
  z
    .string({ error: `${name} must be a number.` })
    .regex(/^(0|[1-9][0-9]{0,9})$/, `${name} must be a whole number written with digits only.`)
    .transform(Number)
    .refine((n) => n >= min, `${name} must be at least ${min}.`)
    .refine((n) => n <= max, tooLarge);

export const listQuery = <S extends readonly [string, ...string[]]>(sorts: S, defaultSort: S[number]) =>
  z.object({
    limit: queryNumber("limit", 1, MAX_PAGE_SIZE, `limit must be at most ${MAX_PAGE_SIZE}.`).default(
      DEFAULT_PAGE_SIZE,
    ),
    offset: queryNumber("offset", 0, 10_000_000, "offset is too large.").default(0),
    q: z
      .string({ error: "Search text must be text." })
      .check(storableText("Search text"))
      .trim()
      .max(100, "Search text must be at most 100 characters.")
      .optional(),
    sort: z.enum(sorts, { error: `sort must be one of ${sorts.join(", ")}.` }).default(defaultSort as never),
  });
