import { z } from "zod";

/** Every error the portal API answers has this body: one readable message. */
export const ZErrorResponseSchema = z.object({
  error: z.string(),
  requestId: z.string().optional(),
});
export type TErrorResponse = z.infer<typeof ZErrorResponseSchema>;
