import { useMutation, useQueryClient } from "@tanstack/react-query";

import { ZDelegationSettingSchema } from "@portal/contracts";
import type { TDelegationSetting } from "@portal/contracts";

import { apiRequest } from "@/lib/api-client";

import { delegationSettingQueryKey } from "./get-delegation-setting";

export const SAVE_DELEGATION_SETTING_FAILED = "The setting could not be saved. Please try again.";

/** PUT /api/admin/settings/delegation. */
export function updateDelegationSetting(body: TDelegationSetting) {
  return apiRequest("/api/admin/settings/delegation", {
    method: "PUT",
    body,
    schema: ZDelegationSettingSchema,
    fallbackError: SAVE_DELEGATION_SETTING_FAILED,
  });
}

export function useUpdateDelegationSetting() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateDelegationSetting,
    onSuccess: (saved) => queryClient.setQueryData(delegationSettingQueryKey, saved),
  });
}
