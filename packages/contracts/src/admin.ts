import { z } from "zod";
import { CANONICAL_ID, MAX_ID, textProblem, type TextRules } from "./text.ts";

/** Spec §9: the privilege options, in the order the forms show them. */
export const PRIVILEGES = ["Build", "Analyze", "Act", "View"] as const;
export type TPrivilege = (typeof PRIVILEGES)[number];

export const ALL_FIELDS_REQUIRED = "All fields are required.";

const missing = (input: unknown) => input === undefined || input === null || input === "";

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
const requestBody = <T extends z.core.$ZodLooseShape>(shape: T) =>
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
const businessId = (label: string) =>
  requiredText(64, label).regex(
    /^[A-Za-z0-9][A-Za-z0-9._-]*$/,
    `${label} may use letters, digits, '.', '_' and '-' only.`,
  );

const emailField = z
  .string({ error: (iss) => (missing(iss.input) ? ALL_FIELDS_REQUIRED : "Email must be text.") })
  .check(storableText("Email"))
  .trim()
  .min(1, ALL_FIELDS_REQUIRED)
  .max(254, "Email must be at most 254 characters.")
  .pipe(z.email("Enter a valid email address."))
  // Sigma rejects whitespace and underscores in an embed user's email (the JWT `sub`).
  .refine((e) => !e.includes("_"), "Email addresses with an underscore cannot be used with Sigma embedding.")
  .transform((e) => e.toLowerCase());

const passwordField = z
  .string({ error: (iss) => (missing(iss.input) ? ALL_FIELDS_REQUIRED : "Password must be text.") })
  .check(storableText("Password"))
  .min(1, ALL_FIELDS_REQUIRED)
  .min(8, "Password must be at least 8 characters.")
  .max(128, "Password must be at most 128 characters.");

/** A JSON body id: a whole number from 1 to PostgreSQL's integer maximum (a string such as "7" is refused). */
const positiveId = (label: string) =>
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

const idList = (label: string, max: number) =>
  z
    .array(positiveId(label), { error: `${label} must be a list of numbers.` })
    .max(max, `At most ${max} ${label.toLowerCase()} can be assigned at once.`)
    .transform((ids) => [...new Set(ids)]);

// ---- Workbooks ----

/** `<Name>-<workbookUrlId>`: the Sigma URL segment; the sidebar label is the part before the last hyphen. */
export const WORKBOOK_NAME_PATTERN = /^[^\s/?#%\\]+-[A-Za-z0-9]{22,24}$/;

export const ZWorkbookSchema = z.object({
  id: z.number().int(),
  workbook_name: z.string(),
  team_name: z.string(),
});
export type TWorkbook = z.infer<typeof ZWorkbookSchema>;

export const ZWorkbookInputSchema = requestBody({
  workbook_name: requiredText(200, "Workbook Name").regex(
    WORKBOOK_NAME_PATTERN,
    "Workbook Name must be the workbook's Sigma URL name: <Name>-<22 to 24 letter/digit id>, e.g. Portfolio-Overview-wBUBiChqcA6De2yMJGx4YJ.",
  ),
  team_name: requiredText(200, "Team Name"),
});
export type TWorkbookInput = z.infer<typeof ZWorkbookInputSchema>;

// ---- Clients ----

/** Whether the person's latest changes have reached the BI service (Sigma or the built-in server). */
export const SYNC_STATUSES = ["synced", "pending", "failed"] as const;
const syncFields = {
  sync_status: z.enum(SYNC_STATUSES),
  /** The BI service's answer to the oldest unfinished change, when it failed or is being retried. */
  sync_error: z.string().nullable(),
  /** Since when a pending change has been waiting for an unreachable or busy BI service (ISO time). */
  sync_waiting_since: z.iso.datetime({ offset: true }).nullable(),
};
/** Whether the person has set up two-step verification (an admin can reset it after a lost device). */
const twoFactorField = { two_factor_enabled: z.boolean() };

/**
 * A client's or employee's invitation as the lists show it (`invitation` of a list row, present only while the
 * person has not set a password): `pending` (the link works until `expires_at`), `expired`, or `revoked`.
 */
export const INVITATION_STATUSES = ["pending", "expired", "revoked"] as const;
export type TInvitationStatus = (typeof INVITATION_STATUSES)[number];
export const ZInvitationStateSchema = z.object({
  status: z.enum(INVITATION_STATUSES),
  /** ISO time (UTC) the latest invitation was sent. */
  sent_at: z.string(),
  /** ISO time (UTC) its link stops working. */
  expires_at: z.string(),
});
export type TInvitationState = z.infer<typeof ZInvitationStateSchema>;

/** Present only while the person has not set a password (invited, DEVIATIONS D55). */
const invitationField = { invitation: ZInvitationStateSchema.optional() };

export const ZClientSchema = z.object({
  c_id: z.number().int(),
  client_id: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  email: z.string(),
  privilege: z.enum(PRIVILEGES),
  workbook_ids: z.array(z.number().int()),
  employees: z.array(z.object({ first_name: z.string(), last_name: z.string() })),
  ...syncFields,
  ...twoFactorField,
  ...invitationField,
});
export type TClient = z.infer<typeof ZClientSchema>;

export const ZAddClientRequestSchema = requestBody({
  clientId: businessId("Client ID"),
  firstName: requiredText(100, "First Name"),
  lastName: requiredText(100, "Last Name"),
  email: emailField,
  password: passwordField,
  role: z.literal("client", { error: "role must be client." }).default("client"),
  privilege: ZPrivilegeSchema,
  workbookIds: idList("Workbook ids", 500).default([]),
  /** Accepted for compatibility with the spec's payload; the server derives teams from workbookIds. */
  teams: z
    .array(z.string().check(storableText("Team names")).max(200))
    .max(500)
    .optional(),
});
export type TAddClientRequest = z.input<typeof ZAddClientRequestSchema>;

export const ZEditClientRequestSchema = requestBody({
  cId: positiveId("cId"),
  clientId: businessId("Client ID"),
  firstName: requiredText(100, "First Name"),
  lastName: requiredText(100, "Last Name"),
  /** Shown read-only on Edit Client; must equal the stored privilege. */
  privilege: ZPrivilegeSchema,
});
export type TEditClientRequest = z.input<typeof ZEditClientRequestSchema>;

// ---- Employees ----

export const ZEmployeeSchema = z.object({
  e_id: z.number().int(),
  employee_id: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  email: z.string(),
  privilege: z.enum(PRIVILEGES),
  clients: z.array(z.object({ c_id: z.number().int(), first_name: z.string(), last_name: z.string() })),
  ...syncFields,
  ...twoFactorField,
  ...invitationField,
});
export type TEmployee = z.infer<typeof ZEmployeeSchema>;

export const ZAddEmployeeRequestSchema = requestBody({
  employeeId: businessId("Employee ID"),
  firstName: requiredText(100, "First Name"),
  lastName: requiredText(100, "Last Name"),
  email: emailField,
  password: passwordField,
  clientIds: idList("Client ids", 5000).default([]),
  role: z.literal("employee", { error: "role must be employee." }).default("employee"),
  privilege: ZPrivilegeSchema,
});
export type TAddEmployeeRequest = z.input<typeof ZAddEmployeeRequestSchema>;

export const ZEditEmployeeRequestSchema = requestBody({
  eId: positiveId("eId"),
  employeeId: businessId("Employee ID"),
  firstName: requiredText(100, "First Name"),
  lastName: requiredText(100, "Last Name"),
  privilege: ZPrivilegeSchema,
  clientIds: idList("Client ids", 5000).default([]),
});
export type TEditEmployeeRequest = z.input<typeof ZEditEmployeeRequestSchema>;

// ---- Responses and list queries ----

export const ZEmbedDataSchema = z.object({ embedUrl: z.string().nullable() });
export type TEmbedData = z.infer<typeof ZEmbedDataSchema>;

export const ZMessageSchema = z.object({ message: z.string() });

export const ZAddClientResponseSchema = z.object({
  message: z.string(),
  data: z.object({ client: ZClientSchema, embed: ZEmbedDataSchema }),
});
export type TAddClientResponse = z.infer<typeof ZAddClientResponseSchema>;

export const ZAddEmployeeResponseSchema = z.object({
  message: z.string(),
  data: z.object({ employee: ZEmployeeSchema, embed: ZEmbedDataSchema }),
});
export type TAddEmployeeResponse = z.infer<typeof ZAddEmployeeResponseSchema>;

export const ZClientMutationResponseSchema = z.object({ message: z.string(), data: ZClientSchema });
export const ZEmployeeMutationResponseSchema = z.object({ message: z.string(), data: ZEmployeeSchema });
export const ZWorkbookMutationResponseSchema = z.object({ message: z.string(), data: ZWorkbookSchema });

/** POST /api/admin/resettwofactorclient/{c_id} and …employee/{e_id}: whether there was one to remove. */
export const ZTwoFactorResetResponseSchema = z.object({ message: z.string(), reset: z.boolean() });
export type TTwoFactorResetResponse = z.infer<typeof ZTwoFactorResetResponseSchema>;

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

const listQuery = <S extends readonly [string, ...string[]]>(sorts: S, defaultSort: S[number]) =>
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

export const CLIENT_SORTS = [
  "client_id",
  "-client_id",
  "first_name",
  "-first_name",
  "last_name",
  "-last_name",
  "email",
  "-email",
  "created",
  "-created",
] as const;
export const ZClientListQuerySchema = listQuery(CLIENT_SORTS, "last_name");
export type TClientListQuery = z.input<typeof ZClientListQuerySchema>;

export const EMPLOYEE_SORTS = [
  "employee_id",
  "-employee_id",
  "first_name",
  "-first_name",
  "last_name",
  "-last_name",
  "email",
  "-email",
  "created",
  "-created",
] as const;
export const ZEmployeeListQuerySchema = listQuery(EMPLOYEE_SORTS, "last_name");
export type TEmployeeListQuery = z.input<typeof ZEmployeeListQuerySchema>;

export const WORKBOOK_SORTS = [
  "id",
  "-id",
  "workbook_name",
  "-workbook_name",
  "team_name",
  "-team_name",
] as const;
export const ZWorkbookListQuerySchema = listQuery(WORKBOOK_SORTS, "id");
export type TWorkbookListQuery = z.input<typeof ZWorkbookListQuerySchema>;

/** The label shown in the sidebar: the workbook name up to its last hyphen, hyphens read as spaces. */
export function workbookLabel(workbookName: string): string {
  const cut = workbookName.lastIndexOf("-");
  return (cut > 0 ? workbookName.slice(0, cut) : workbookName).replace(/-/g, " ");
}

// ---- Workbook viewing (signed-in clients and employees) ----

/** POST /api/sigma/provision-and-embed — `workbookId` is the workbook name segment `<Name>-<urlId>`. */
export const ZProvisionAndEmbedRequestSchema = z.strictObject(
  {
    workbookId: z
      .string({ error: "workbookId is required." })
      .check(storableText("workbookId"))
      .trim()
      .min(1, "workbookId is required.")
      .max(200),
  },
  { error: (iss) => (iss.code === "invalid_type" ? "workbookId is required." : undefined) },
);
export type TProvisionAndEmbedRequest = z.infer<typeof ZProvisionAndEmbedRequestSchema>;
export const ZProvisionAndEmbedResponseSchema = ZEmbedDataSchema.extend({ embedUrl: z.string() });
export type TProvisionAndEmbedResponse = z.infer<typeof ZProvisionAndEmbedResponseSchema>;

/** GET /api/me/workbooks — the caller's workbooks, for the sidebar. */
export const ZMyWorkbooksResponseSchema = z.array(ZWorkbookSchema);

// ---- BI sync (/admin/sync): the changes on their way to the BI service ----

export const SYNC_KINDS = ["member.upsert", "member.deactivate", "team.upsert"] as const;

/** One change not yet delivered to the BI service, or refused by it (DEVIATIONS D44). */
export const ZSyncItemSchema = z.object({
  id: z.string(),
  kind: z.enum(SYNC_KINDS),
  /** The BI member's email or the team's name. */
  subject: z.string(),
  /** The client or employee it concerns, while they exist. */
  person: z
    .object({
      type: z.enum(["client", "employee"]),
      id: z.number().int(),
      business_id: z.string(),
      name: z.string(),
    })
    .nullable(),
  /** pending: on its way (maybe waiting for the BI service); failed: refused by the BI service. */
  status: z.enum(["pending", "failed"]),
  attempts: z.number().int(),
  last_error: z.string().nullable(),
  next_attempt_at: z.string(),
  waiting_since: z.string().nullable(),
  /** A worker is delivering it right now. */
  in_flight: z.boolean(),
  created_at: z.string(),
});
export type TSyncItem = z.infer<typeof ZSyncItemSchema>;

export const SYNC_FILTERS = ["all", "failed", "waiting"] as const;
export const ZSyncListQuerySchema = z.object({
  limit: queryNumber("limit", 1, MAX_PAGE_SIZE, `limit must be at most ${MAX_PAGE_SIZE}.`).default(
    DEFAULT_PAGE_SIZE,
  ),
  offset: queryNumber("offset", 0, 10_000_000, "offset is too large.").default(0),
  status: z.enum(SYNC_FILTERS, { error: `status must be one of ${SYNC_FILTERS.join(", ")}.` }).default("all"),
});
export type TSyncListQuery = z.input<typeof ZSyncListQuerySchema>;

/** The queue at a glance, and whether the BI service answers right now. */
export const ZSyncOverviewSchema = z.object({
  reachable: z.boolean(),
  checked_at: z.string(),
  pending: z.number().int(),
  waiting: z.number().int(),
  failed: z.number().int(),
  waiting_since: z.string().nullable(),
});
export type TSyncOverview = z.infer<typeof ZSyncOverviewSchema>;

export const ZSyncRetryResponseSchema = z.object({ message: z.string(), requeued: z.number().int() });
export type TSyncRetryResponse = z.infer<typeof ZSyncRetryResponseSchema>;
