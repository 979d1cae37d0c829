import { queryOptions, useQuery } from "@tanstack/react-query";
import type { QueryClient } from "@tanstack/react-query";

import { authClient } from "@/lib/auth-client";
import { toRequestError } from "@/lib/errors";

export type TSession = NonNullable<Awaited<ReturnType<typeof authClient.getSession>>["data"]>;

export const sessionQueryKey = ["auth", "session"] as const;

/** The signed-in session, or null for an anonymous visitor. */
export async function getSession(): Promise<TSession | null> {
  const { data, error } = await authClient.getSession();
  if (error) {
    if (error.status === 401) return null;
    throw toRequestError(error, "We could not check your sign-in. Please reload the page.");
  }
  return data ?? null;
}

export const sessionQueryOptions = () =>
  queryOptions({ queryKey: sessionQueryKey, queryFn: getSession, staleTime: 60_000 });

export function useSession() {
  return useQuery(sessionQueryOptions());
}

/** Reads the session from the server again (after sign-in, sign-up or a profile change) and caches it. */
export function refreshSession(queryClient: QueryClient): Promise<TSession | null> {
  return queryClient.fetchQuery({ ...sessionQueryOptions(), staleTime: 0 });
}

/** After sign-out: forget everything cached for the previous user and mark the visitor as anonymous. */
export function clearSession(queryClient: QueryClient): void {
  queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== sessionQueryKey[0] });
  queryClient.setQueryData(sessionQueryKey, null);
}
