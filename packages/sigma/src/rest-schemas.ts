import { z } from "zod";

/**
 * Request and response schemas of the Sigma REST API calls the portal makes, one per operation id, written
 * from Sigma's published OpenAPI definition (help.sigmacomputing.com's REST reference; the definition by tag:
 * members, teams, grants, files, workbooks, auth, accountTypes, user-attributes). Each schema requires what
 * the definition marks required and nothing else: optional and deprecated fields (`isArchived`,
 * `isInactive`, `total`, `hasMore`) may be absent, and fields the definition does not list pass through.
 * The portal's client parses every answer with these, and the built-in analytics server's answers are
 * checked against the same schemas in its tests, so a drift on either side fails a test.
 */

const text = z.string();
const nullableText = z.string().nullable();
/** `format: date-time` in the definition. */
const dateTime = z.string();

// ---- Errors and pages ----

/** `components/responses/ApiError`: every operation's `default` answer; no field is required. */
export const ZSigmaErrorSchema = z.looseObject({
  message: text.optional(),
  code: text.optional(),
  requestId: text.optional(),
});
export type TSigmaError = z.infer<typeof ZSigmaErrorSchema>;

/**
 * A page: `entries` and `nextPage` (null on the last page) are required; `total` is optional and `hasMore`
 * is deprecated.
 */
export function pageOf<T extends z.ZodType>(entry: T) {
  return z.looseObject({
    entries: z.array(entry),
    nextPage: nullableText,
    total: z.number().optional(),
    hasMore: z.boolean().optional(),
  });
}

/**
 * `listMembers` and `listTeams` answer `oneOf` a bare array (one page, without `limit`) or a page. The
 * client always sends `limit`, but reads either, the array as a last page.
 */
export function listOf<T extends z.ZodType>(entry: T) {
  return z.preprocess(
    (answer) => (Array.isArray(answer) ? { entries: answer, nextPage: null } : answer),
    pageOf(entry),
  );
}

/** `{}`: the answer of deletes and membership changes (`type: object, properties: {}`). */
export const ZSigmaEmptySchema = z.looseObject({});

// ---- Auth: postToken (POST /v2/auth/token) ----

/**
 * postToken, "Access token" variant: form-encoded `grant_type=client_credentials`, the client id and secret
 * by HTTP Basic authentication (the operation's `basicAuth` security scheme).
 */
export const ZSigmaTokenRequestSchema = z.object({ grant_type: z.literal("client_credentials") });
export const ZSigmaTokenResponseSchema = z.looseObject({
  access_token: text.min(1),
  refresh_token: text,
  token_type: text,
  expires_in: z.number().positive(),
});
export type TSigmaTokenResponse = z.infer<typeof ZSigmaTokenResponseSchema>;

// ---- Members: listMembers, getMember, createMember, updateMember, deleteMember ----

export const SIGMA_USER_KINDS = ["internal", "guest", "embed"] as const;

/** The member object of getMember, createMember, updateMember and listMembers' entries (13 required). */
export const ZSigmaMemberSchema = z.looseObject({
  organizationId: text,
  memberId: text,
  /** The account type's name. */
  memberType: text,
  firstName: text,
  lastName: text,
  email: text,
  profileImgUrl: nullableText,
  createdBy: text,
  updatedBy: text,
  createdAt: dateTime,
  updatedAt: dateTime,
  homeFolderId: text,
  /** `embed` for embed users; anything else signs in to Sigma directly. A bare string in answers. */
  userKind: text,
  /** "Whether a user is deactivated in Sigma": what deleteMember sets. */
  isArchived: z.boolean().optional(),
  /** "Whether a user is archived by SCIM." */
  isInactive: z.boolean().optional(),
});
export type TSigmaMember = z.infer<typeof ZSigmaMemberSchema>;

/** listMembers' query: `email` filters; archived and SCIM-inactive members are listed only when asked. */
export const ZSigmaListMembersQuerySchema = z.object({
  email: text.optional(),
  includeArchived: z.boolean().optional(),
  includeInactive: z.boolean().optional(),
  limit: z.number().int().min(1).max(1000).optional(),
  page: text.optional(),
});

/** createMember's body: email, firstName and lastName are required. */
export const ZSigmaCreateMemberSchema = z.object({
  email: z.email(),
  firstName: text,
  lastName: text,
  memberType: text.min(1).optional(),
  isGuest: z.boolean().optional(),
  userKind: z.enum(SIGMA_USER_KINDS).optional(),
  addToTeams: z.array(z.object({ teamId: text.min(1), isTeamAdmin: z.boolean().optional() })).optional(),
});
export type TSigmaCreateMember = z.input<typeof ZSigmaCreateMemberSchema>;

/** updateMember's body: nothing is required; `isArchived: false` brings back a deactivated member. */
export const ZSigmaUpdateMemberSchema = z.object({
  memberType: text.min(1).optional(),
  firstName: text.optional(),
  lastName: text.optional(),
  profileImgUrl: nullableText.optional(),
  email: text.optional(),
  isArchived: z.boolean().optional(),
  isInactive: z.boolean().optional(),
  userKind: z.enum(SIGMA_USER_KINDS).optional(),
  newOwnerId: text.optional(),
  archiveDocuments: z.boolean().optional(),
  archiveScheduledExports: z.boolean().optional(),
});
export type TSigmaUpdateMember = z.input<typeof ZSigmaUpdateMemberSchema>;

// ---- Teams: listTeams, createTeam, getTeamMembers, updateTeamMembers ----

/** The team object of listTeams' entries and updateTeam (8 required). */
export const ZSigmaTeamSchema = z.looseObject({
  teamId: text,
  createdBy: text,
  updatedBy: text,
  createdAt: dateTime,
  updatedAt: dateTime,
  name: text,
  description: nullableText,
  visibility: z.enum(["public", "private"]).nullable(),
  isArchived: z.boolean().optional(),
});
export type TSigmaTeam = z.infer<typeof ZSigmaTeamSchema>;

/** createTeam's answer: the team, its `members` (ids) and `workspaceId` (null without a team folder). */
export const ZSigmaCreatedTeamSchema = ZSigmaTeamSchema.extend({
  members: z.array(text),
  workspaceId: nullableText,
});

/** createTeam's body: only `name` is required. */
export const ZSigmaCreateTeamSchema = z.object({
  name: text.min(1),
  description: text.optional(),
  members: z.array(text.min(1)).optional(),
  createTeamFolder: z.boolean().optional(),
  visibility: z.enum(["public", "private"]).optional(),
});
export type TSigmaCreateTeam = z.input<typeof ZSigmaCreateTeamSchema>;

/** getTeamMembers' entries: a member by `userId` ("equivalent to Member ID"). */
export const ZSigmaTeamMemberSchema = z.looseObject({
  userId: text,
  isTeamAdmin: z.boolean(),
  addedBy: text,
});
export type TSigmaTeamMember = z.infer<typeof ZSigmaTeamMemberSchema>;

/** updateTeamMembers' body, by member id; answers `{}`. */
export const ZSigmaUpdateTeamMembersSchema = z.object({
  add: z.array(text.min(1)).optional(),
  remove: z.array(text.min(1)).optional(),
});
export type TSigmaUpdateTeamMembers = z.input<typeof ZSigmaUpdateTeamMembersSchema>;

// ---- Account types: listAccountTypes (GET /v2/accountTypes; pageToken / nextPageToken paging) ----

export const ZSigmaAccountTypeSchema = z.looseObject({
  accountTypeId: text,
  accountTypeName: text,
  description: text,
  isCustom: z.boolean(),
});
export type TSigmaAccountTypeEntry = z.infer<typeof ZSigmaAccountTypeSchema>;
/** `nextPageToken` is absent on the last page (not null). */
export const ZSigmaAccountTypesPageSchema = z.looseObject({
  entries: z.array(ZSigmaAccountTypeSchema),
  nextPageToken: text.optional(),
});

// ---- User attributes: listUserAttributes (GET /v2/user-attributes?name=) ----

export const ZSigmaUserAttributeSchema = z.looseObject({
  userAttributeId: text,
  name: text,
  createdBy: text,
  updatedBy: text,
  createdAt: dateTime,
  updatedAt: dateTime,
  description: nullableText.optional(),
  defaultValue: z
    .looseObject({ type: z.literal("string"), val: text })
    .nullable()
    .optional(),
});
export type TSigmaUserAttribute = z.infer<typeof ZSigmaUserAttributeSchema>;

// ---- Workbooks: listWorkbooks, getWorkbook ----

/** The workbook object of listWorkbooks' entries and getWorkbook. `workbookId` is also its inode id. */
export const ZSigmaWorkbookSchema = z.looseObject({
  workbookId: text,
  /** The `<workbookUrlId>` of `<Name>-<workbookUrlId>`. */
  workbookUrlId: text,
  name: text,
  url: text,
  path: text,
  latestVersion: z.number(),
  ownerId: text,
  createdBy: text,
  updatedBy: text,
  createdAt: dateTime,
  updatedAt: dateTime,
  isArchived: z.boolean().optional(),
  description: text.optional(),
});
export type TSigmaWorkbook = z.infer<typeof ZSigmaWorkbookSchema>;

// ---- Grants: listGrants, createGrant, deleteGrant ----

/** Permissions on documents ("Inode Permission"); the portal grants `view`. */
export const SIGMA_DOCUMENT_PERMISSIONS = [
  "create",
  "annotate",
  "organize",
  "explore",
  "view",
  "edit",
  "apply",
] as const;
/** Every permission value of the definition's three enums (connection, document, version tag). */
const ZSigmaPermissionSchema = z.enum([
  ...SIGMA_DOCUMENT_PERMISSIONS,
  "admin",
  "update",
  "usage",
  "writeback",
]);

/** The grant object of listGrants' entries, createGrant, getGrant and deleteGrant (11 required). */
export const ZSigmaGrantSchema = z.looseObject({
  grantId: text,
  inodeId: text,
  organizationId: text,
  memberId: nullableText,
  teamId: nullableText,
  permission: ZSigmaPermissionSchema,
  createdBy: text,
  updatedBy: text,
  createdAt: dateTime,
  updatedAt: dateTime,
  inodeType: text,
});
export type TSigmaGrant = z.infer<typeof ZSigmaGrantSchema>;

/** listGrants' filters: a document (`inodeId`: a workbook's `workbookId`), a team, or a member (`userId`). */
export const ZSigmaListGrantsQuerySchema = z.object({
  inodeId: text.optional(),
  teamId: text.optional(),
  userId: text.optional(),
  directGrantsOnly: z.boolean().optional(),
  limit: z.number().int().min(1).max(1000).optional(),
  page: text.optional(),
});

/** createGrant's body: a member or a team, a permission, a document. It only ever raises access. */
export const ZSigmaCreateGrantSchema = z.object({
  // oneOf: a member or a team, never both.
  grantee: z.union([z.strictObject({ memberId: text.min(1) }), z.strictObject({ teamId: text.min(1) })]),
  permission: ZSigmaPermissionSchema,
  inodeId: text.min(1),
  tagId: text.optional(),
});
export type TSigmaCreateGrant = z.input<typeof ZSigmaCreateGrantSchema>;
