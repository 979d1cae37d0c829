import { queryOptions, useQuery } from "@tanstack/react-query";

import { ZDelegationSettingSchema } from "@portal/contracts";

import { apiRequest } from "@/lib/api-client";

export const LOAD_DELEGATION_SETTING_FAILED = "Whether clients may invite people could not be loaded.";
export const delegationSettingQueryKey = ["admin", "settings", "delegation"] as const;

/** GET /api/admin/settings/delegation: whether clients may invite people to view their workbooks. */
export function getDelegationSetting(signal?: AbortSignal) {
  return apiRequest("/api/admin/settings/delegation", {
    schema: ZDelegationSettingSchema,
    fallbackError: LOAD_DELEGATION_SETTING_FAILED,
    signal,
  });
}

export const delegationSettingQueryOptions = () =>
  queryOptions({
    queryKey: delegationSettingQueryKey,
    queryFn: ({ signal }) => getDelegationSetting(signal),
  });

export function useDelegationSetting() {
  return useQuery(delegationSettingQueryOptions());
}
