import { AppError } from "../lib/errors.ts";

/** The rows of a raw `db.execute` result (the same shape on PGlite and node-postgres). */
export function rows<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}

export function pgCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; current && depth < 4; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string" && /^[0-9A-Z]{5}$/.test(code)) return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** A unique-constraint race that slipped past the explicit checks still answers 409, not 500. */
export function rethrowConflict(error: unknown, message: string): never {
  if (pgCode(error) === "23505") throw new AppError(409, message, "CONFLICT");
  throw error;
}
