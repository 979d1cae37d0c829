import { ZAcceptInvitationResponseSchema } from "@portal/contracts";
import type { TAcceptInvitationRequest, TAcceptInvitationResponse } from "@portal/contracts";

import { apiRequest } from "@/lib/api-client";

/**
 * POST /api/invitations/accept: the invited person's first password (the portal's password policy applies),
 * or only the token for someone who already has a password (`hasPassword`).
 */
export function acceptInvitation(input: TAcceptInvitationRequest): Promise<TAcceptInvitationResponse> {
  return apiRequest("/api/invitations/accept", {
    method: "POST",
    body: input,
    schema: ZAcceptInvitationResponseSchema,
    fallbackError:
      input.password === undefined
        ? "The invitation could not be accepted. Please try again."
        : "Your password could not be set. Please try again.",
  });
}
