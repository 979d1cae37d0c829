// A client's circle (issue 23, decision 020): delegates a client invites to view their workbooks, households an
// admin groups clients into, and whom the signed-in person may view.
import { z } from "zod";

import { ZWorkbookSchema } from "./admin.ts";
import { emailField, positiveId, requestBody, requiredText } from "./fields.ts";

// ---- Whom the signed-in person may view ----

/** One client the signed-in person may view: themselves first, then the clients who made them a delegate. */
export const ZViewableClientSchema = z.object({
  /**
   * The client's record id (`c_id`): `?client=` in the URL, `clientId` in provision-and-embed. Null only for an
   * employee's own entry (their clients' workbooks together, as ever), which the web opens without `?client`.
   */
  c_id: z.number().int().nullable(),
  /** "Olivia Bennett". */
  name: z.string(),
  /** The signed-in person's own workbooks (true) or a delegation's (false). */
  self: z.boolean(),
  /** ISO time a delegation ends; null: no end (and always null for `self`). */
  expires_at: z.string().nullable(),
  workbooks: z.array(ZWorkbookSchema),
});
export type TViewableClient = z.infer<typeof ZViewableClientSchema>;

/** GET /api/me/clients. */
export const ZMyClientsResponseSchema = z.array(ZViewableClientSchema);

/** `?client={c_id}` on GET /api/me/workbooks. */
export const ZViewClientQuerySchema = z.strictObject({
  client: z
    .string()
    .regex(/^[1-9][0-9]{0,9}$/, "client must be a client's number.")
    .transform(Number)
    .pipe(z.number().max(2_147_483_647, "client is out of range."))
    .optional(),
});

// ---- Delegates ----

export const DELEGATE_STATUSES = ["invited", "active", "expired"] as const;
export type TDelegateStatus = (typeof DELEGATE_STATUSES)[number];

export const ZDelegateSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  email: z.string(),
  status: z.enum(DELEGATE_STATUSES),
  /** All of the client's workbooks (also those assigned later), or only `workbook_ids`. */
  all_workbooks: z.boolean(),
  workbook_ids: z.array(z.number().int()),
  /** ISO time the access ends; null: until revoked. */
  expires_at: z.string().nullable(),
  invited_at: z.string(),
  accepted_at: z.string().nullable(),
  last_viewed_at: z.string().nullable(),
});
export type TDelegate = z.infer<typeof ZDelegateSchema>;

/** GET /api/me/delegates: the client's delegates, and whether the firm lets clients invite. */
export const ZMyDelegatesResponseSchema = z.object({
  canInvite: z.boolean(),
  delegates: z.array(ZDelegateSchema),
});
export type TMyDelegatesResponse = z.infer<typeof ZMyDelegatesResponseSchema>;

/** GET /api/admin/clients/{c_id}/delegates. */
export const ZClientDelegatesResponseSchema = z.array(ZDelegateSchema);

const MAX_SHARED = 500;
const workbookIds = z
  .array(positiveId("workbookIds"), { error: "workbookIds must be a list of workbook numbers." })
  .min(1, "Choose at least one workbook, or leave workbookIds out to share all of them.")
  .max(MAX_SHARED, `At most ${MAX_SHARED} workbooks can be shared at once.`)
  .transform((ids) => [...new Set(ids)].sort((a, b) => a - b));

/** An end date: an ISO date-time or date in the future; null: no end. */
const expiresAt = z
  .union([z.iso.datetime({ offset: true }), z.iso.date()], {
    error: "expiresAt must be a date such as 2027-03-31, or null for no end date.",
  })
  .transform((value) => new Date(value.length === 10 ? `${value}T23:59:59.999Z` : value))
  .refine((date) => date.getTime() > Date.now(), "The end date must be in the future.")
  .refine(
    (date) => date.getTime() < Date.now() + 10 * 366 * 86_400_000,
    "The end date must be within ten years.",
  )
  .nullable();

/** POST /api/me/delegates and POST /api/admin/clients/{c_id}/delegates. No `workbookIds`: all. */
export const ZDelegateInviteRequestSchema = requestBody({
  email: emailField,
  name: requiredText(100, "Name"),
  workbookIds: workbookIds.optional(),
  expiresAt: expiresAt.optional(),
});
export type TDelegateInviteRequest = z.input<typeof ZDelegateInviteRequestSchema>;

/** PATCH /api/me/delegates/{id}: `workbookIds: null` shares all; `expiresAt: null` removes the end date. */
export const ZDelegateChangeRequestSchema = requestBody({
  workbookIds: workbookIds.nullable().optional(),
  expiresAt: expiresAt.optional(),
}).refine((body) => body.workbookIds !== undefined || body.expiresAt !== undefined, {
  message: "Nothing to change: send workbookIds or expiresAt.",
});
export type TDelegateChangeRequest = z.input<typeof ZDelegateChangeRequestSchema>;

export const ZDelegateResponseSchema = z.object({ message: z.string(), delegate: ZDelegateSchema });
export type TDelegateResponse = z.infer<typeof ZDelegateResponseSchema>;

// ---- Households ----

export const ZHouseholdMemberSchema = z.object({
  c_id: z.number().int(),
  client_id: z.string(),
  name: z.string(),
});

export const ZHouseholdSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  combinedView: z.boolean(),
  members: z.array(ZHouseholdMemberSchema),
});
export type THousehold = z.infer<typeof ZHouseholdSchema>;

/** GET /api/admin/households. */
export const ZHouseholdsResponseSchema = z.array(ZHouseholdSchema);

/** POST /api/admin/households and PUT /api/admin/households/{id}. */
export const ZHouseholdInputSchema = requestBody({
  name: requiredText(100, "Household name"),
  clientIds: z
    .array(positiveId("clientIds"), { error: "clientIds must be a list of client numbers." })
    .min(1, "A household needs at least one client.")
    .max(50, "A household can have at most 50 clients.")
    .transform((ids) => [...new Set(ids)].sort((a, b) => a - b)),
  combinedView: z.boolean({ error: "combinedView must be true or false." }),
});
export type THouseholdInput = z.input<typeof ZHouseholdInputSchema>;

export const ZHouseholdResponseSchema = z.object({ message: z.string(), household: ZHouseholdSchema });

/** The household a client belongs to, on their back-office page (null: none). */
export const ZClientHouseholdResponseSchema = ZHouseholdSchema.nullable();

// ---- The firm's setting ----

/** GET|PUT /api/admin/settings/delegation: "Clients may invite people to view their workbooks". */
export const ZDelegationSettingSchema = requestBody({
  clientsMayInvite: z.boolean({ error: "clientsMayInvite must be true or false." }),
});
export type TDelegationSetting = z.infer<typeof ZDelegationSettingSchema>;
