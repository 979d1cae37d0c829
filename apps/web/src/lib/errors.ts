/** An error with a message that is safe and useful to show to the person using the portal. */
export class AppRequestError extends Error {
  readonly status: number | undefined;
  readonly code: string | undefined;

  constructor(message: string, options: { status?: number | undefined; code?: string | undefined } = {}) {
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
  code?: string | undefined;
};

/**
 * Turns a Better Auth client error (`{ message, status, code }`) or a portal API error body (`{ error }`)
 * into an AppRequestError carrying the server's message, falling back to `fallback`.
 */
export function toRequestError(error: TErrorLike, fallback: string): AppRequestError {
  const serverMessage =
    (typeof error.message === "string" && error.message.trim()) ||
    (typeof error.error === "string" && error.error.trim()) ||
    "";
  const message = serverMessage || (error.status === 429 ? TOO_MANY_REQUESTS_MESSAGE : fallback);
  return new AppRequestError(message, { status: error.status, code: error.code });
}

/** The message to show for anything thrown by an API call. */
export function getErrorMessage(error: unknown, fallback: string): string {
  if (error instanceof AppRequestError) return error.message;
  return fallback;
}
