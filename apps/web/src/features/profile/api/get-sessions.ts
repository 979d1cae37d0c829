import { queryOptions, useQuery } from "@tanstack/react-query";

import { ZSessionListResponseSchema } from "@portal/contracts";

import { apiRequest } from "@/lib/api-client";

export const LOAD_SESSIONS_FAILED = "Your sessions could not be loaded. Please try again.";

export const sessionsQueryKey = ["me", "sessions"] as const;

/** GET /api/me/sessions: where the signed-in person is signed in (never a session's token). */
export function getSessions() {
  return apiRequest("/api/me/sessions", {
    schema: ZSessionListResponseSchema,
    fallbackError: LOAD_SESSIONS_FAILED,
  });
}

export const sessionsQueryOptions = () => queryOptions({ queryKey: sessionsQueryKey, queryFn: getSessions });

export function useSessions() {
  return useQuery(sessionsQueryOptions());
}
