import { ZInvitationLookupResponseSchema } from "@portal/contracts";
import type { TInvitationLookupResponse } from "@portal/contracts";

import { apiRequest } from "@/lib/api-client";

export const INVITATION_LOOKUP_FAILED = "The invitation could not be checked. Please reload the page.";

/** POST /api/invitations/lookup: whose invitation the link is, or why it can no longer be used. */
export function getInvitation(token: string, signal?: AbortSignal): Promise<TInvitationLookupResponse> {
  return apiRequest("/api/invitations/lookup", {
    method: "POST",
    body: { token },
    schema: ZInvitationLookupResponseSchema,
    fallbackError: INVITATION_LOOKUP_FAILED,
    signal,
  });
}
