import type { ApiErrorCode } from "./error-codes.ts";

/** One error type for the portal API; the global handler maps `status` to the HTTP answer. */
export class AppError extends Error {
  constructor(
    public readonly status: 400 | 401 | 403 | 404 | 409 | 422 | 429 | 500 | 503,
    message: string,
    public readonly code: ApiErrorCode = "ERROR",
  ) {
    super(message);
    this.name = "AppError";
  }
}

export const unauthenticated = () => new AppError(401, "Sign in to continue.", "UNAUTHENTICATED");
export const forbidden = (message = "You do not have permission to do this.") =>
  new AppError(403, message, "FORBIDDEN");
export const notFound = (message = "Not found.") => new AppError(404, message, "NOT_FOUND");
