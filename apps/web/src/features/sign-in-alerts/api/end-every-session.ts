import { useMutation } from "@tanstack/react-query";

import { ZNotMeResponseSchema } from "@portal/contracts";
import type { TNotMeRequest } from "@portal/contracts";

import { apiRequest } from "@/lib/api-client";

export const END_EVERY_SESSION_FAILED =
  "Your account could not be signed out everywhere. Please try again, or choose a new password with Reset Password on the sign-in page.";

/**
 * POST /api/auth-alerts/not-me: "This wasn't me" from a new-device email. Ends every session of the account
 * (this browser's too) and emails a link to choose a new password.
 */
export function endEverySession(input: TNotMeRequest) {
  return apiRequest("/api/auth-alerts/not-me", {
    method: "POST",
    body: input,
    schema: ZNotMeResponseSchema,
    fallbackError: END_EVERY_SESSION_FAILED,
  });
}

export function useEndEverySession() {
  return useMutation({ mutationFn: endEverySession });
}
