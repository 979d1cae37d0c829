import { useMutation } from "@tanstack/react-query";

import { ZBrandingResponseSchema } from "@portal/contracts";

import { apiRequest } from "@/lib/api-client";

import { useBrandingSaved } from "./update-settings";

export const REMOVE_LOGO_FAILED = "The logo could not be removed.";

/** DELETE /api/admin/settings/logo: the portal shows its built-in mark again. */
export function removeLogo() {
  return apiRequest("/api/admin/settings/logo", {
    method: "DELETE",
    schema: ZBrandingResponseSchema,
    fallbackError: REMOVE_LOGO_FAILED,
  });
}

export function useRemoveLogo() {
  const saved = useBrandingSaved();
  return useMutation({ mutationFn: removeLogo, onSuccess: saved });
}
