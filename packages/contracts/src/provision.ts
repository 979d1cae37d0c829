// The full zod API on purpose: the API parses this body itself and its error handler answers 400 for a
// classic `ZodError`. The web only sends it (typed by `TProvisionRequest`), so it stays out of the SPA.
import { z } from "zod";

import { ZEmailSchema, ZFullNameSchema, ZSelfSignUpRoleSchema } from "./auth.ts";

/** POST /api/sigma/provision — body sent with the bearer token right after Create Account. */
export const ZProvisionRequestSchema = z.strictObject({
  name: ZFullNameSchema,
  email: ZEmailSchema,
  role: ZSelfSignUpRoleSchema,
});
export type TProvisionRequest = z.infer<typeof ZProvisionRequestSchema>;
