/**
 * Every `code` the portal's API answers with, in one place: `AppError` accepts only these, so a misspelt code
 * fails the type check instead of reaching a client that tests for it. Codes are part of the API contract:
 * add, never rename. Codes the portal sends through Better Auth's answers (routes/auth.ts, auth/*) are listed
 * too, so the web app and the tests have one list to read.
 */
export const API_ERROR_CODES = [
  // Any route
  "ERROR",
  "UNAUTHENTICATED",
  "BAD_TOKEN",
  "FORBIDDEN",
  "NOT_FOUND",
  "CONFLICT",
  "RATE_LIMITED",
  "MFA_ENROLLMENT_REQUIRED",
  // Request bodies (plugins/request-bodies.ts)
  "BODY_TOO_DEEP",
  "INVALID_JSON",
  "INVALID_INPUT",
  // Back office
  "DUPLICATE_EMAIL",
  "DUPLICATE_CLIENT_ID",
  "DUPLICATE_EMPLOYEE_ID",
  "DUPLICATE_WORKBOOK",
  "UNKNOWN_WORKBOOK",
  "UNKNOWN_CLIENT",
  "PRIVILEGE_READ_ONLY",
  "TEAM_NAME_SPELLING",
  // CSV import of clients and employees (routes/admin-import.ts)
  "FILE_TOO_LARGE",
  "TOO_MANY_ROWS",
  "NOT_CSV",
  "FILE_ENCODING",
  "IMPORT_MAPPING",
  "IMPORT_STATE",
  // Firm branding (routes/admin-settings.ts)
  "LOGO_TYPE",
  "LOGO_UNSAFE",
  "LOGO_TOO_LARGE",
  // Invitations (invitations/*, D55)
  "INVITATION_INVALID",
  "INVITATION_USED",
  "INVITATION_EXPIRED",
  "INVITATION_REVOKED",
  "NO_OPEN_INVITATION",
  "ALREADY_HAS_PASSWORD",
  "INVITATION_PENDING",
  // Provisioning
  "EMAIL_MISMATCH",
  // Sign-in, sign-up and two-step verification (answered through Better Auth)
  "SIGN_UP_NOT_ALLOWED",
  "PASSWORD_POLICY",
  "TRUST_DEVICE_NOT_OFFERED",
  "TOO_MANY_FAILED_ATTEMPTS",
  "MFA_REQUIRED_FOR_ROLE",
  "TOTP_CODE_USED",
] as const;

export type ApiErrorCode = (typeof API_ERROR_CODES)[number];
