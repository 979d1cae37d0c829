import { queryOptions, useQuery } from "@tanstack/react-query";

import { ZMyDelegatesResponseSchema } from "@portal/contracts";

import { apiRequest } from "@/lib/api-client";

import { MY_DELEGATES, delegatesPath, delegatesQueryKey } from "../utils/owner";

export const LOAD_MY_DELEGATES_FAILED = "The people with access to your workbooks could not be loaded.";

/**
 * GET /api/me/delegates: the signed-in client's delegates, and whether the firm lets clients invite. Anyone who
 * is not a client is refused (403), so the profile shows the card only when this answers.
 */
export function getMyDelegates(signal?: AbortSignal) {
  return apiRequest(delegatesPath(MY_DELEGATES), {
    schema: ZMyDelegatesResponseSchema,
    fallbackError: LOAD_MY_DELEGATES_FAILED,
    signal,
  });
}

export const myDelegatesQueryOptions = () =>
  queryOptions({
    queryKey: delegatesQueryKey(MY_DELEGATES),
    queryFn: ({ signal }) => getMyDelegates(signal),
    // A refusal says this person has no delegates to manage: asking again would only repeat it.
    retry: false,
  });

/** `enabled`: only for a client (`mayHaveDelegates`); anyone else would only be refused. */
export function useMyDelegates(enabled: boolean) {
  return useQuery({ ...myDelegatesQueryOptions(), enabled });
}
