// The two kinds of person the portal registers, clients and employees: their list rows, add and edit
// bodies, answers and list queries (spec §5 and §7, exactly as the spec names them), and the one table of
// what differs between the kinds in the API's paths and words (`PEOPLE`). The API's people module
// (`apps/api/src/people/`) and the web's (`apps/web/src/features/people/`) build every screen and
// route for both kinds from these.
import { z } from "zod";
import {
  ALL_FIELDS_REQUIRED,
  PRIVILEGES,
  ZEmbedDataSchema,
  ZPrivilegeSchema,
  businessId,
  emailField,
  idList,
  listQuery,
  missing,
  passwordField,
  positiveId,
  requestBody,
  requiredText,
  storableText,
} from "./fields.ts";
import { PERSON_KINDS, type TPersonKind } from "./person-kinds.ts";

export { PERSON_KINDS, type TPersonKind };
export const ZPersonKindSchema = z.enum(PERSON_KINDS, { error: "kind must be client or employee." });

/**
 * What differs between the kinds in the API's paths and in the words of its answers. The spec's paths
 * (`/api/admin/addclient`, `/api/admin/deleteclient/{c_id}`, ...) and messages, for each kind.
 */
export const PEOPLE = {
  client: {
    kind: "client",
    /** "Client registered successfully!", "Client ID", "Client not found." */
    noun: "Client",
    /** "a client", in sentences. */
    withArticle: "a client",
    idLabel: "Client ID",
    /** The internal id's path parameter and list field (`c_id`), and its name in the edit body (`cId`). */
    idParam: "c_id",
    idField: "cId",
    /** The business id's list field and body field. */
    businessIdParam: "client_id",
    businessIdField: "clientId",
    paths: {
      list: "/api/admin/clients",
      add: "/api/admin/addclient",
      edit: "/api/admin/editclient",
      remove: "/api/admin/deleteclient",
      resync: "/api/admin/resyncclient",
      resetTwoFactor: "/api/admin/resettwofactorclient",
      revokeSessions: "/api/admin/revokesessionsclient",
    },
  },
  employee: {
    kind: "employee",
    noun: "Employee",
    withArticle: "an employee",
    idLabel: "Employee ID",
    idParam: "e_id",
    idField: "eId",
    businessIdParam: "employee_id",
    businessIdField: "employeeId",
    paths: {
      list: "/api/admin/employees",
      add: "/api/admin/addemployee",
      edit: "/api/admin/editemployee",
      remove: "/api/admin/deleteemployee",
      resync: "/api/admin/resyncemployee",
      resetTwoFactor: "/api/admin/resettwofactoremployee",
      revokeSessions: "/api/admin/revokesessionsemployee",
    },
  },
} as const satisfies Record<TPersonKind, { kind: TPersonKind } & Record<string, unknown>>;

// ---- List rows ----

/** Whether the person's latest changes have reached the BI service (Sigma or the built-in server). */
export const SYNC_STATUSES = ["synced", "pending", "failed"] as const;
const syncFields = {
  sync_status: z.enum(SYNC_STATUSES),
  /** The BI service's answer to the oldest unfinished change, when it failed or is being retried. */
  sync_error: z.string().nullable(),
  /** Since when a pending change has been waiting for an unreachable or busy BI service (ISO time). */
  sync_waiting_since: z.iso.datetime({ offset: true }).nullable(),
  /**
   * The person's Sigma member also signs in to Sigma directly: the portal links it and never changes it
   * (its account type, teams and attributes are managed in Sigma).
   */
  managed_in_sigma: z.boolean(),
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

/** The list row's fields every kind has, beside its ids and what it is assigned. */
const rowFields = {
  first_name: z.string(),
  last_name: z.string(),
  email: z.string(),
  privilege: z.enum(PRIVILEGES),
  ...syncFields,
  ...twoFactorField,
  ...invitationField,
};

/** The names of an add or edit body. */
const nameFields = {
  firstName: requiredText(100, "First Name"),
  lastName: requiredText(100, "Last Name"),
};

/** The list's sorts: by the kind's business id, names, email or creation, ascending or descending (`-`). */
const personSorts = <B extends string>(businessId: B) =>
  [
    businessId,
    `-${businessId}`,
    "first_name",
    "-first_name",
    "last_name",
    "-last_name",
    "email",
    "-email",
    "created",
    "-created",
  ] as const;

/** Add's answer: the spec's message, the person under the kind's name, and the registration embed. */
const addedResponse = <K extends string, S extends z.ZodType>(key: K, row: S) =>
  z.object({
    message: z.string(),
    data: z.object({ embed: ZEmbedDataSchema }).extend({ [key]: row } as Record<K, S>),
  });

// ---- Clients ----

export const ZClientSchema = z.object({
  c_id: z.number().int(),
  client_id: z.string(),
  ...rowFields,
  workbook_ids: z.array(z.number().int()),
  employees: z.array(z.object({ first_name: z.string(), last_name: z.string() })),
});
export type TClient = z.infer<typeof ZClientSchema>;

export const ZAddClientRequestSchema = requestBody({
  clientId: businessId("Client ID"),
  ...nameFields,
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
  ...nameFields,
  /** Shown read-only on Edit Client; must equal the stored privilege. */
  privilege: ZPrivilegeSchema,
});
export type TEditClientRequest = z.input<typeof ZEditClientRequestSchema>;

// ---- Employees ----

export const ZEmployeeSchema = z.object({
  e_id: z.number().int(),
  employee_id: z.string(),
  ...rowFields,
  clients: z.array(z.object({ c_id: z.number().int(), first_name: z.string(), last_name: z.string() })),
});
export type TEmployee = z.infer<typeof ZEmployeeSchema>;

export const ZAddEmployeeRequestSchema = requestBody({
  employeeId: businessId("Employee ID"),
  ...nameFields,
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
  ...nameFields,
  privilege: ZPrivilegeSchema,
  clientIds: idList("Client ids", 5000).default([]),
});
export type TEditEmployeeRequest = z.input<typeof ZEditEmployeeRequestSchema>;

export const ZAddClientResponseSchema = addedResponse("client", ZClientSchema);
export type TAddClientResponse = z.infer<typeof ZAddClientResponseSchema>;

export const ZAddEmployeeResponseSchema = addedResponse("employee", ZEmployeeSchema);
export type TAddEmployeeResponse = z.infer<typeof ZAddEmployeeResponseSchema>;

export const ZClientMutationResponseSchema = z.object({ message: z.string(), data: ZClientSchema });
export const ZEmployeeMutationResponseSchema = z.object({ message: z.string(), data: ZEmployeeSchema });

/** POST /api/admin/resettwofactorclient/{c_id} and …employee/{e_id}: whether there was one to remove. */
export const ZTwoFactorResetResponseSchema = z.object({ message: z.string(), reset: z.boolean() });
export type TTwoFactorResetResponse = z.infer<typeof ZTwoFactorResetResponseSchema>;

export const CLIENT_SORTS = personSorts("client_id");
export const ZClientListQuerySchema = listQuery(CLIENT_SORTS, "last_name");
export type TClientListQuery = z.input<typeof ZClientListQuerySchema>;

export const EMPLOYEE_SORTS = personSorts("employee_id");
export const ZEmployeeListQuerySchema = listQuery(EMPLOYEE_SORTS, "last_name");
export type TEmployeeListQuery = z.input<typeof ZEmployeeListQuerySchema>;

// ---- "Send an invitation" (D55) ----

export const INVITE_MUST_BE_TRUE = "invite must be true or left out.";
const NO_PASSWORD_WITH_INVITE =
  "Leave the password out when sending an invitation: the person chooses their own.";

/** Absent body → 'All fields are required.'; not an object → says so; an `invite` of another value → says so. */
const unionError = (iss: { code?: string; input?: unknown }) => {
  if (iss.code === "invalid_type") {
    return missing(iss.input) ? ALL_FIELDS_REQUIRED : "The request body must be a JSON object.";
  }
  return INVITE_MUST_BE_TRUE;
};

const noPassword = z
  .unknown()
  .refine((value) => value === undefined, NO_PASSWORD_WITH_INVITE)
  .optional();
const inviteTrue = z.literal(true, { error: INVITE_MUST_BE_TRUE });
const inviteFalse = z.literal(false, { error: INVITE_MUST_BE_TRUE }).optional();

/** An invitation's body: the spec's payload with `password` left out and `invite: true`. */
export const ZAddClientInviteRequestSchema = ZAddClientRequestSchema.omit({ password: true }).extend({
  invite: inviteTrue,
  password: noPassword,
});
export type TAddClientInviteRequest = z.input<typeof ZAddClientInviteRequestSchema>;
export const ZAddEmployeeInviteRequestSchema = ZAddEmployeeRequestSchema.omit({ password: true }).extend({
  invite: inviteTrue,
  password: noPassword,
});
export type TAddEmployeeInviteRequest = z.input<typeof ZAddEmployeeInviteRequestSchema>;

/** POST /api/admin/addclient: the spec's payload with a password, or without one and `invite: true`. */
export const ZAddClientBodySchema = z.discriminatedUnion(
  "invite",
  [ZAddClientRequestSchema.extend({ invite: inviteFalse }), ZAddClientInviteRequestSchema],
  { error: unionError },
);
/** POST /api/admin/addemployee: as Add Client. */
export const ZAddEmployeeBodySchema = z.discriminatedUnion(
  "invite",
  [ZAddEmployeeRequestSchema.extend({ invite: inviteFalse }), ZAddEmployeeInviteRequestSchema],
  { error: unionError },
);
