// Invitations (issue 13 point 1, DEVIATIONS D55), the admin's side: Resend, Revoke and the password-reset
// email. Add Client / Add Employee with `invite: true` and the lists' `invitation` state are in `people.ts`;
// the invitation page's own schemas are zod/mini, in `invitation-page.ts` (the sign-in page, decision 004).
import { z } from "zod";
import { ZInvitationStateSchema } from "./people.ts";

/** Resend, Revoke and the password-reset email: what happened, in words the admin reads. */
export const ZInvitationActionResponseSchema = z.object({
  message: z.string(),
  invitation: ZInvitationStateSchema.nullable(),
});
export type TInvitationActionResponse = z.infer<typeof ZInvitationActionResponseSchema>;
