import { queryOptions, useQuery } from "@tanstack/react-query";

import { ZBrandingResponseSchema } from "@portal/contracts";

import { apiRequest } from "@/lib/api-client";

export const LOAD_SETTINGS_FAILED = "The firm's settings could not be loaded.";
export const settingsQueryKey = ["admin", "settings"] as const;

/** GET /api/admin/settings: the firm's name, primary colour, support email and logo. */
export function getSettings(signal?: AbortSignal) {
  return apiRequest("/api/admin/settings", {
    schema: ZBrandingResponseSchema,
    fallbackError: LOAD_SETTINGS_FAILED,
    signal,
  });
}

export const settingsQueryOptions = () =>
  queryOptions({ queryKey: settingsQueryKey, queryFn: ({ signal }) => getSettings(signal) });

export function useSettings() {
  return useQuery(settingsQueryOptions());
}
