import { ZPublicConfigSchema } from "@portal/contracts";
import type { TPublicConfig } from "@portal/contracts";

import { apiRequest } from "@/lib/api-client";

/** GET /api/config: public settings for the sign-in screens (sign-up, social providers, password policy). */
export function getConfig(signal?: AbortSignal): Promise<TPublicConfig> {
  return apiRequest("/api/config", {
    schema: ZPublicConfigSchema,
    fallbackError: "The sign-in settings could not be loaded.",
    signal,
  });
}
