import * as z from "zod/mini";
import type { ApiErrorCode } from "./error-codes.ts";

/**
 * Every error the portal API answers has this body: one readable message (zod/mini: see auth.ts). `code` is
 * one of `API_ERROR_CODES` (error-codes.ts; the API's tests hold every answer to it); the schema reads it as a
 * string, so the list itself stays out of the sign-in page's script (decision 004).
 */
export const ZErrorResponseSchema = z.object({
  error: z.string(),
  /** A stable machine-readable reason where the client acts on it (e.g. `MFA_ENROLLMENT_REQUIRED`). */
  code: z.optional(z.string()),
  requestId: z.optional(z.string()),
});
export type TErrorResponse = Omit<z.infer<typeof ZErrorResponseSchema>, "code"> & { code?: ApiErrorCode };
