import { ZProvisionResponseSchema } from "@portal/contracts";
import type { TProvisionRequest, TProvisionResponse } from "@portal/contracts";

import { apiRequest } from "@/lib/api-client";

/**
 * POST /api/sigma/provision: queues the new account's analytics (Sigma) user; authorised by the JWT.
 * `input` comes from the Create Account values ZSignUpSchema has already validated; the API checks it again.
 */
export function provisionAnalyticsUser(input: TProvisionRequest, token: string): Promise<TProvisionResponse> {
  return apiRequest("/api/sigma/provision", {
    method: "POST",
    body: input,
    headers: { Authorization: `Bearer ${token}` },
    schema: ZProvisionResponseSchema,
    fallbackError: "Your analytics access could not be set up.",
  });
}
