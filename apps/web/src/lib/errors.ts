import type { ApiErrorCode } from "@portal/contracts";

/** An error with a message that is safe and useful to show to the person using the portal. */
export class AppRequestError extends Error {
  readonly status: number | undefined;
  /** The API's reason, one of `API_ERROR_CODES` (@portal/contracts): what screens compare, never a string. */
  readonly code: ApiErrorCode | undefined;

  constructor(
    message: string,
    options: { status?: number | undefined; code?: ApiErrorCode | undefined } = {},
  ) {
    super(message);
    this.name = "AppRequestError";
    this.status = options.status;
    this.code = options.code;
  }
}

export const TOO_MANY_REQUESTS_MESSAGE = "Too many attempts. Please wait a few minutes and try again.";

/** The shape of `error` in Better Auth client results, and of portal API error bodies once parsed. */
export type TErrorLike = {
  message?: string | undefined;
  error?: unknown;
  status?: number | undefined;
  /** Better Auth's client types its codes as strings: read with `apiErrorCode`. */
  code?: string | undefined;
};

/**
 * The `code` of an answer as one of the API's codes (`ApiErrorCode`, @portal/contracts). The API sends no other
 * (its tests hold every answer, Better Auth's included, to the list), so this is a type, not a check: the list
 * itself stays out of the sign-in page's script (decision 004).
 */
export function apiErrorCode(code: unknown): ApiErrorCode | undefined {
  return typeof code === "string" && code ? (code as ApiErrorCode) : undefined;
}

/**
 * Turns a Better Auth client error (`{ message, status, code }`) or a portal API error body (`{ error }`)
 * into an AppRequestError carrying the server's message, falling back to `fallback`, and its code.
 */
export function toRequestError(error: TErrorLike, fallback: string): AppRequestError {
  const serverMessage =
    (typeof error.message === "string" && error.message.trim()) ||
    (typeof error.error === "string" && error.error.trim()) ||
    "";
  const message = serverMessage || (error.status === 429 ? TOO_MANY_REQUESTS_MESSAGE : fallback);
  return new AppRequestError(message, {
    status: error.status,
    code: apiErrorCode(error.code),
  });
}

/** The message to show for anything thrown by an API call. */
export function getErrorMessage(error: unknown, fallback: string): string {
  if (error instanceof AppRequestError) return error.message;
  return fallback;
}
