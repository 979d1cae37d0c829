// zod/mini: the invitation page (/invitation?token=…) is on the sign-in page (decision 004), whose first load
// must not carry the full zod API. The admin's side of invitations is `invitations.ts`.
import * as zm from "zod/mini";
import { storableTextCheck } from "./auth.ts";

/** `delegate`: a client's invitation to view their workbooks (issue 23); the others come from the firm. */
export const INVITATION_KIND_NAMES = ["client", "employee", "delegate"] as const;

/** The link's token: 43 base64url characters (32 random bytes). */
export const INVITATION_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;
const INVALID_LINK = "This invitation link is not valid. Use the link in the latest invitation email.";

export const ZInvitationTokenSchema = zm
  .string({ error: INVALID_LINK })
  .check(zm.regex(INVITATION_TOKEN_PATTERN, INVALID_LINK));

/** POST /api/invitations/lookup: whose invitation the link is (before the person chooses a password). */
const BODY = { error: "The request body must be a JSON object with the invitation's token (and password)." };
export const ZInvitationLookupRequestSchema = zm.strictObject({ token: ZInvitationTokenSchema }, BODY);
export type TInvitationLookupRequest = zm.infer<typeof ZInvitationLookupRequestSchema>;

export const ZInvitationLookupResponseSchema = zm.object({
  firstName: zm.string(),
  email: zm.string(),
  kind: zm.enum(INVITATION_KIND_NAMES),
  /** ISO time (UTC) the link stops working. */
  expiresAt: zm.string(),
  /** Their role must set up two-step verification (MFA_REQUIRED_ROLES): the page says it comes next. */
  twoStepRequired: zm.boolean(),
  /** A delegate's invitation: the client who sent it ("Olivia Bennett"); null for the firm's. */
  invitedBy: zm.nullable(zm.string()),
  /**
   * The address already has a password (a client, employee or delegate of someone else): accepting needs no
   * new one, and the person signs in as usual.
   */
  hasPassword: zm.boolean(),
});
export type TInvitationLookupResponse = zm.infer<typeof ZInvitationLookupResponseSchema>;

/** POST /api/invitations/accept: the new password (the accounts module's policy applies on the server). */
export const ZAcceptInvitationRequestSchema = zm.strictObject(
  {
    token: ZInvitationTokenSchema,
    /** Required unless the address already has a password (`hasPassword`). */
    password: zm.optional(
      zm
        .string({ error: "Password must be text." })
        .check(storableTextCheck("Password"), zm.minLength(1, "Password is required.")),
    ),
  },
  BODY,
);
export type TAcceptInvitationRequest = zm.infer<typeof ZAcceptInvitationRequestSchema>;

export const ZAcceptInvitationResponseSchema = zm.object({
  message: zm.string(),
  /** The address to sign in with. */
  email: zm.string(),
  twoStepRequired: zm.boolean(),
});
export type TAcceptInvitationResponse = zm.infer<typeof ZAcceptInvitationResponseSchema>;

/** The `code`s of a link that cannot be used (the page words each one; the API's messages say the same). */
export const INVITATION_LINK_CODES = [
  "INVITATION_INVALID",
  "INVITATION_USED",
  "INVITATION_EXPIRED",
  "INVITATION_REVOKED",
] as const;
