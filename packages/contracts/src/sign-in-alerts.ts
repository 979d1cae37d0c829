// The new-device alert's "This wasn't me" (issue 24, decision 021): the mailed link opens /not-me, whose button
// posts the link's token.
import { z } from "zod";

import { requestBody } from "./fields.ts";

/** The SPA page the alert's link opens (`/not-me?token=…`): it acts only when its button is pressed. */
export const NOT_ME_PATH = "/not-me";

/** The link's token: 43 base64url characters (32 random bytes). */
export const NOT_ME_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** A link cut short by a mail program, or typed in by hand. */
export const NOT_ME_LINK_INCOMPLETE =
  "This link is not complete. Open the link in the new sign-in email again, or copy all of it into the address bar.";

/** POST /api/auth-alerts/not-me: ends every session of the account and emails a password reset link. */
export const ZNotMeRequestSchema = requestBody({
  token: z.string({ error: NOT_ME_LINK_INCOMPLETE }).regex(NOT_ME_TOKEN_PATTERN, NOT_ME_LINK_INCOMPLETE),
});
export type TNotMeRequest = z.infer<typeof ZNotMeRequestSchema>;

export const ZNotMeResponseSchema = z.object({ ok: z.literal(true) });
export type TNotMeResponse = z.infer<typeof ZNotMeResponseSchema>;
