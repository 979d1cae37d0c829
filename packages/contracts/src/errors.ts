import * as z from "zod/mini";
import { API_ERROR_CODES, type ApiErrorCode } from "./error-codes.ts";

/** Every error the portal API answers has this body: one readable message (zod/mini: see auth.ts). */
export const ZErrorResponseSchema = z.object({
  error: z.string(),
  /** A stable machine-readable reason where the client acts on it (e.g. `MFA_ENROLLMENT_REQUIRED`). */
  code: z.optional(z.enum(API_ERROR_CODES as [ApiErrorCode, ...ApiErrorCode[]])),
  requestId: z.optional(z.string()),
});
export type TErrorResponse = z.infer<typeof ZErrorResponseSchema>;
