import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { z } from "zod";

import { ZBrandingResponseSchema, ZBrandingUpdateRequestSchema } from "@portal/contracts";
import type { TBrandingResponse } from "@portal/contracts";

import { apiRequest } from "@/lib/api-client";
import { brandingQueryOptions } from "@/lib/branding-query";

import { settingsQueryKey } from "./get-settings";

export const SAVE_SETTINGS_FAILED = "The settings could not be saved.";

/** Firm name, primary colour (contrast with white checked) and support email: the server's rules. */
export const ZSettingsFormSchema = ZBrandingUpdateRequestSchema;
export type TSettingsFormInput = z.input<typeof ZSettingsFormSchema>;
export type TSettingsForm = z.output<typeof ZSettingsFormSchema>;

/** PUT /api/admin/settings. */
export function updateSettings(input: TSettingsForm) {
  return apiRequest("/api/admin/settings", {
    method: "PUT",
    body: input,
    schema: ZBrandingResponseSchema,
    fallbackError: SAVE_SETTINGS_FAILED,
  });
}

/** Every screen shows the new branding at once: the settings and the shells' copy are both replaced. */
export function useBrandingSaved() {
  const queryClient = useQueryClient();
  return (branding: TBrandingResponse) => {
    queryClient.setQueryData(settingsQueryKey, branding);
    queryClient.setQueryData(brandingQueryOptions.queryKey, branding);
  };
}

export function useUpdateSettings() {
  const saved = useBrandingSaved();
  return useMutation({ mutationFn: updateSettings, onSuccess: saved });
}
