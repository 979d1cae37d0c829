// Invitations (issue 13 point 1, DEVIATIONS D55), the admin's side: Add Client / Add Employee with
// `invite: true`, Resend, Revoke and the password-reset email (the lists' `invitation` state is in `admin.ts`).
// The invitation page's own schemas are zod/mini, in `invitation-page.ts` (the sign-in page, decision 004).
import { z } from "zod";
import {
  ALL_FIELDS_REQUIRED,
  ZAddClientRequestSchema,
  ZAddEmployeeRequestSchema,
  ZInvitationStateSchema,
} from "./admin.ts";

/** The kinds of person an invitation is for: `{kind}` of `/api/admin/invitations/{kind}/{id}`. */
export const INVITATION_KINDS = ["client", "employee"] as const;
export type TInvitationKind = (typeof INVITATION_KINDS)[number];
export const ZInvitationKindSchema = z.enum(INVITATION_KINDS, {
  error: "kind must be client or employee.",
});

export const INVITE_MUST_BE_TRUE = "invite must be true or left out.";
const NO_PASSWORD_WITH_INVITE =
  "Leave the password out when sending an invitation: the person chooses their own.";

const missing = (input: unknown) => input === undefined || input === null || input === "";

/** Absent body → 'All fields are required.'; not an object → says so; an `invite` of another value → says so. */
const unionError = (iss: { code?: string; input?: unknown }) => {
  if (iss.code === "invalid_type") {
    return missing(iss.input) ? ALL_FIELDS_REQUIRED : "The request body must be a JSON object.";
  }
  return INVITE_MUST_BE_TRUE;
};

const noPassword = z
  .unknown()
  .refine((value) => value === undefined, NO_PASSWORD_WITH_INVITE)
  .optional();
const inviteTrue = z.literal(true, { error: INVITE_MUST_BE_TRUE });
const inviteFalse = z.literal(false, { error: INVITE_MUST_BE_TRUE }).optional();

/** An invitation's body: the spec's payload with `password` left out and `invite: true`. */
export const ZAddClientInviteRequestSchema = ZAddClientRequestSchema.omit({ password: true }).extend({
  invite: inviteTrue,
  password: noPassword,
});
export type TAddClientInviteRequest = z.input<typeof ZAddClientInviteRequestSchema>;
export const ZAddEmployeeInviteRequestSchema = ZAddEmployeeRequestSchema.omit({ password: true }).extend({
  invite: inviteTrue,
  password: noPassword,
});
export type TAddEmployeeInviteRequest = z.input<typeof ZAddEmployeeInviteRequestSchema>;

/** POST /api/admin/addclient: the spec's payload with a password, or without one and `invite: true`. */
export const ZAddClientBodySchema = z.discriminatedUnion(
  "invite",
  [ZAddClientRequestSchema.extend({ invite: inviteFalse }), ZAddClientInviteRequestSchema],
  { error: unionError },
);
/** POST /api/admin/addemployee: as Add Client. */
export const ZAddEmployeeBodySchema = z.discriminatedUnion(
  "invite",
  [ZAddEmployeeRequestSchema.extend({ invite: inviteFalse }), ZAddEmployeeInviteRequestSchema],
  { error: unionError },
);

/** Resend, Revoke and the password-reset email: what happened, in words the admin reads. */
export const ZInvitationActionResponseSchema = z.object({
  message: z.string(),
  invitation: ZInvitationStateSchema.nullable(),
});
export type TInvitationActionResponse = z.infer<typeof ZInvitationActionResponseSchema>;
