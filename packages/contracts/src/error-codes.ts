/**
 * Every `code` the portal's API answers with, in one place: the server's `AppError` and the error body accept
 * only these, so a misspelt code fails the type check instead of reaching a client that tests for it, and the
 * web app reads codes from here. Codes are part of the API contract: add, never rename.
 */
const PORTAL_ERROR_CODES = [
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
  // CSV import of clients and employees (import/routes.ts)
  "FILE_TOO_LARGE",
  "TOO_MANY_ROWS",
  "NOT_CSV",
  "FILE_ENCODING",
  "IMPORT_MAPPING",
  "IMPORT_STATE",
  // Firm branding (branding/admin-routes.ts)
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
  // Passkeys (auth/hooks/passkeys.ts, issue 24)
  "PASSKEY_SIGN_IN_REQUIRED",
  "LAST_SECOND_STEP",
  "PASSKEY_NOT_VERIFIED",
  // Codes by email (auth/hooks/email-codes.ts, issue 24)
  "EMAIL_CODES_OFF",
  "EMAIL_CODE_NOT_NEEDED",
  // "This wasn't me" from a new-device alert (signin/alert-routes.ts, issue 24): used, expired or unknown
  "NOT_ME_LINK_INVALID",
  // An address the router cannot read (`/%zz`), or a path part over its length
  "BAD_URL",
  "URL_PART_TOO_LONG",
  // Anything unexpected on the server (the body never says more; the log has the cause)
  "INTERNAL_ERROR",
  // The database (or another service the answer needs) is away for a moment: 503 with Retry-After
  // (lib/dependency-faults.ts, issue 25). A write cut off mid-way may or may not have been saved.
  "DEPENDENCY_UNAVAILABLE",
  "WRITE_OUTCOME_UNKNOWN",
] as const;

/**
 * The code of a refusal that has no more specific one: the HTTP status's name (`httpStatusCode`), e.g. Fastify's
 * own 413 and 415 or a Better Auth refusal without a code.
 */
export const HTTP_STATUS_ERROR_CODES = {
  400: "BAD_REQUEST",
  401: "UNAUTHORIZED",
  403: "FORBIDDEN",
  404: "NOT_FOUND",
  405: "METHOD_NOT_ALLOWED",
  406: "NOT_ACCEPTABLE",
  409: "CONFLICT",
  410: "GONE",
  411: "LENGTH_REQUIRED",
  413: "PAYLOAD_TOO_LARGE",
  414: "URI_TOO_LONG",
  415: "UNSUPPORTED_MEDIA_TYPE",
  422: "UNPROCESSABLE_ENTITY",
  429: "TOO_MANY_REQUESTS",
  431: "REQUEST_HEADER_FIELDS_TOO_LARGE",
  500: "INTERNAL_ERROR",
  503: "SERVICE_UNAVAILABLE",
} as const;

/**
 * The codes Better Auth (1.6, with the two-factor and admin plugins the portal uses) answers under /api/auth,
 * passed through by the portal. A test compares this with the running `auth.$ERROR_CODES`, so an upgrade that
 * adds one fails until it is listed here; a code not listed is sent as its status's name (routes/auth.ts).
 */
const BETTER_AUTH_ERROR_CODES = [
  // The passkey plugin (@better-auth/passkey)
  "CHALLENGE_NOT_FOUND",
  "YOU_ARE_NOT_ALLOWED_TO_REGISTER_THIS_PASSKEY",
  "FAILED_TO_VERIFY_REGISTRATION",
  "PASSKEY_NOT_FOUND",
  "AUTHENTICATION_FAILED",
  "UNABLE_TO_CREATE_SESSION",
  "FAILED_TO_UPDATE_PASSKEY",
  "PREVIOUSLY_REGISTERED",
  "REGISTRATION_CANCELLED",
  "AUTH_CANCELLED",
  "UNKNOWN_ERROR",
  "SESSION_REQUIRED",
  "RESOLVE_USER_REQUIRED",
  "RESOLVED_USER_INVALID",
  "OTP_NOT_ENABLED",
  "OTP_HAS_EXPIRED",
  "TOTP_NOT_ENABLED",
  "TWO_FACTOR_NOT_ENABLED",
  "BACKUP_CODES_NOT_ENABLED",
  "INVALID_BACKUP_CODE",
  "INVALID_CODE",
  "TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE",
  "ACCOUNT_TEMPORARILY_LOCKED",
  "INVALID_TWO_FACTOR_COOKIE",
  "FAILED_TO_CREATE_USER",
  "USER_ALREADY_EXISTS",
  "USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL",
  "YOU_CANNOT_BAN_YOURSELF",
  "YOU_ARE_NOT_ALLOWED_TO_CHANGE_USERS_ROLE",
  "YOU_ARE_NOT_ALLOWED_TO_CREATE_USERS",
  "YOU_ARE_NOT_ALLOWED_TO_LIST_USERS",
  "YOU_ARE_NOT_ALLOWED_TO_LIST_USERS_SESSIONS",
  "YOU_ARE_NOT_ALLOWED_TO_BAN_USERS",
  "YOU_ARE_NOT_ALLOWED_TO_IMPERSONATE_USERS",
  "YOU_ARE_NOT_ALLOWED_TO_REVOKE_USERS_SESSIONS",
  "YOU_ARE_NOT_ALLOWED_TO_DELETE_USERS",
  "YOU_ARE_NOT_ALLOWED_TO_SET_USERS_PASSWORD",
  "BANNED_USER",
  "YOU_ARE_NOT_ALLOWED_TO_GET_USER",
  "NO_DATA_TO_UPDATE",
  "YOU_ARE_NOT_ALLOWED_TO_UPDATE_USERS",
  "YOU_CANNOT_REMOVE_YOURSELF",
  "YOU_ARE_NOT_ALLOWED_TO_SET_NON_EXISTENT_VALUE",
  "YOU_CANNOT_IMPERSONATE_ADMINS",
  "INVALID_ROLE_TYPE",
  "YOU_ARE_NOT_ALLOWED_TO_SET_USERS_EMAIL",
  "PASSWORD_CANNOT_BE_UPDATED_VIA_UPDATE_USER",
  "USER_NOT_FOUND",
  "FAILED_TO_CREATE_SESSION",
  "FAILED_TO_UPDATE_USER",
  "FAILED_TO_GET_SESSION",
  "INVALID_PASSWORD",
  "INVALID_EMAIL",
  "INVALID_EMAIL_OR_PASSWORD",
  "INVALID_USER",
  "SOCIAL_ACCOUNT_ALREADY_LINKED",
  "PROVIDER_NOT_FOUND",
  "INVALID_TOKEN",
  "TOKEN_EXPIRED",
  "ID_TOKEN_NOT_SUPPORTED",
  "FAILED_TO_GET_USER_INFO",
  "USER_EMAIL_NOT_FOUND",
  "EMAIL_NOT_VERIFIED",
  "PASSWORD_TOO_SHORT",
  "PASSWORD_TOO_LONG",
  "EMAIL_CAN_NOT_BE_UPDATED",
  "CHANGE_EMAIL_DISABLED",
  "CREDENTIAL_ACCOUNT_NOT_FOUND",
  "SESSION_EXPIRED",
  "FAILED_TO_UNLINK_LAST_ACCOUNT",
  "ACCOUNT_NOT_FOUND",
  "USER_ALREADY_HAS_PASSWORD",
  "CROSS_SITE_NAVIGATION_LOGIN_BLOCKED",
  "VERIFICATION_EMAIL_NOT_ENABLED",
  "EMAIL_ALREADY_VERIFIED",
  "EMAIL_MISMATCH",
  "SESSION_NOT_FRESH",
  "LINKED_ACCOUNT_ALREADY_EXISTS",
  "INVALID_ORIGIN",
  "INVALID_CALLBACK_URL",
  "INVALID_REDIRECT_URL",
  "INVALID_ERROR_CALLBACK_URL",
  "INVALID_NEW_USER_CALLBACK_URL",
  "MISSING_OR_NULL_ORIGIN",
  "CALLBACK_URL_REQUIRED",
  "FAILED_TO_CREATE_VERIFICATION",
  "FIELD_NOT_ALLOWED",
  "ASYNC_VALIDATION_NOT_SUPPORTED",
  "VALIDATION_ERROR",
  "MISSING_FIELD",
  "METHOD_NOT_ALLOWED_DEFER_SESSION_REQUIRED",
  "BODY_MUST_BE_AN_OBJECT",
  "PASSWORD_ALREADY_SET",
] as const;

export const API_ERROR_CODES = [
  ...new Set([...PORTAL_ERROR_CODES, ...Object.values(HTTP_STATUS_ERROR_CODES), ...BETTER_AUTH_ERROR_CODES]),
] as readonly ApiErrorCode[];

export type ApiErrorCode =
  | (typeof PORTAL_ERROR_CODES)[number]
  | (typeof HTTP_STATUS_ERROR_CODES)[keyof typeof HTTP_STATUS_ERROR_CODES]
  | (typeof BETTER_AUTH_ERROR_CODES)[number];

const KNOWN = new Set<string>(API_ERROR_CODES);

/** Whether `code` is on the list (a code read from an answer, or passed through from Better Auth). */
export function isApiErrorCode(code: unknown): code is ApiErrorCode {
  return typeof code === "string" && KNOWN.has(code);
}

/** The code of a refusal with no more specific one: 413 → `PAYLOAD_TOO_LARGE`; an unlisted status → `ERROR`. */
export function httpStatusCode(status: number): ApiErrorCode {
  return (HTTP_STATUS_ERROR_CODES as Record<number, ApiErrorCode>)[status] ?? "ERROR";
}
