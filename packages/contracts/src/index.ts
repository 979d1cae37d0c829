export * from "./auth.ts";
export * from "./provision.ts";
export * from "./config.ts";
export * from "./errors.ts";
export * from "./error-codes.ts";
export {
  ALL_FIELDS_REQUIRED,
  DEFAULT_PAGE_SIZE,
  MAX_PAGE_SIZE,
  PRIVILEGES,
  ZEmbedDataSchema,
  ZMessageSchema,
  ZPrivilegeSchema,
  pathId,
  queryNumber,
  requiredText,
  storableText,
  type TEmbedData,
  type TPrivilege,
} from "./fields.ts";
export * from "./people.ts";
export * from "./admin.ts";
export * from "./routes.ts";
export * from "./mfa.ts";
export * from "./text.ts";
export * from "./audit.ts";
export * from "./import.ts";
export * from "./sessions.ts";
export * from "./branding.ts";
export * from "./colour-contrast.ts";
export * from "./branding-settings.ts";
export * from "./invitations.ts";
export * from "./invitation-page.ts";
export * from "./circle.ts";
export * from "./sign-in.ts";
export * from "./account-writes.ts";
export * from "./sign-in-alerts.ts";
export * from "./workbook-start.ts";
export * from "./workbook-start-path.ts";
