import { INVITATION_LINK_CODES } from "@portal/contracts";
import type { ApiErrorCode, TAcceptInvitationRequest, TInvitationLookupResponse } from "@portal/contracts";

import { AppRequestError } from "@/lib/errors";

/*
 * The invitation page's words and requests (DEVIATIONS D55; a client's delegate, issue 23). Part of the sign-in
 * page: no router, no query cache, zod/mini only (decision 004).
 */

export const CHOOSE_PASSWORD = "Choose the password you will sign in to the portal with.";

type TInvitationFacts = Pick<TInvitationLookupResponse, "kind" | "invitedBy" | "hasPassword">;

/** The line under the greeting: who invited them to what, or what to do. */
export function invitationIntro(invitation: TInvitationFacts): string {
  if (invitation.kind === "delegate") {
    return invitation.invitedBy
      ? `${invitation.invitedBy} invited you to view their workbooks.`
      : "You are invited to view a client's workbooks.";
  }
  return invitation.hasPassword ? "Accept your invitation to the portal." : CHOOSE_PASSWORD;
}

/** After accepting without a new password: where their access now shows. */
export function acceptedText(invitedBy: string | null): string {
  const what = invitedBy ? `${invitedBy}'s workbooks` : "the workbooks shared with you";
  return `Invitation accepted. Sign in with your usual password to view ${what}.`;
}

/** POST /api/invitations/accept's body: the token, and a password only for someone who chooses one now. */
export function acceptRequest(token: string, password?: string): TAcceptInvitationRequest {
  return password === undefined ? { token } : { token, password };
}

/** A refusal that means the link itself can no longer be used (used, expired, revoked, unknown). */
export function isLinkError(error: unknown): error is AppRequestError {
  return (
    error instanceof AppRequestError &&
    error.code !== undefined &&
    (INVITATION_LINK_CODES as readonly ApiErrorCode[]).includes(error.code)
  );
}
