import { STATUS_CODES } from "node:http";
import type { ApiErrorCode } from "./error-codes.ts";

/** One error type for the portal API; the global handler maps `status` to the HTTP answer. */
export class AppError extends Error {
  /** One of the API's codes (`error-codes.ts`), else the HTTP status's name (`codeForStatus`). */
  public readonly code: string;

  constructor(
    public readonly status: 400 | 401 | 403 | 404 | 409 | 410 | 413 | 422 | 429 | 500 | 503,
    message: string,
    code?: ApiErrorCode,
  ) {
    super(message);
    this.name = "AppError";
    this.code = code ?? codeForStatus(status);
  }
}

/** The machine-readable `code` of an error that has no more specific one: 413 → `PAYLOAD_TOO_LARGE`. */
export function codeForStatus(status: number): string {
  return (STATUS_CODES[status] ?? "Error").toUpperCase().replace(/[^A-Z0-9]+/g, "_");
}

export const unauthenticated = () => new AppError(401, "Sign in to continue.", "UNAUTHENTICATED");
export const forbidden = (message = "You do not have permission to do this.") =>
  new AppError(403, message, "FORBIDDEN");
export const notFound = (message = "Not found.") => new AppError(404, message, "NOT_FOUND");
