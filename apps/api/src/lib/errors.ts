import { httpStatusCode, type ApiErrorCode } from "@portal/contracts";

/** One error type for the portal API; the global handler maps `status` to the HTTP answer. */
export class AppError extends Error {
  /** One of the API's codes (`@portal/contracts` error-codes.ts), else the HTTP status's name. */
  public readonly code: ApiErrorCode;

  constructor(
    public readonly status: 400 | 401 | 403 | 404 | 409 | 410 | 413 | 422 | 429 | 500 | 503,
    message: string,
    code?: ApiErrorCode,
  ) {
    super(message);
    this.name = "AppError";
    this.code = code ?? httpStatusCode(status);
  }
}

export const unauthenticated = () => new AppError(401, "Sign in to continue.", "UNAUTHENTICATED");
export const forbidden = (message = "You do not have permission to do this.") =>
  new AppError(403, message, "FORBIDDEN");
export const notFound = (message = "Not found.") => new AppError(404, message, "NOT_FOUND");
