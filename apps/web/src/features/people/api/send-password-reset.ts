import { useMutation } from "@tanstack/react-query";

import { ZInvitationActionResponseSchema } from "@portal/contracts";

import { apiRequest } from "@/lib/api-client";

import type { TInvitationTarget } from "./resend-invitation";

export const PASSWORD_RESET_FAILED = "The password reset email could not be sent. Please try again.";

/** POST /api/admin/password-reset/{kind}/{id}: the sign-in page's reset email, sent for the person. */
export function sendPasswordReset({ kind, id }: TInvitationTarget) {
  return apiRequest(`/api/admin/password-reset/${kind}/${id}`, {
    method: "POST",
    schema: ZInvitationActionResponseSchema,
    fallbackError: PASSWORD_RESET_FAILED,
  });
}

export function useSendPasswordReset(target: TInvitationTarget) {
  return useMutation({ mutationFn: () => sendPasswordReset(target) });
}
