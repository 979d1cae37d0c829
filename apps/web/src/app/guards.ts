import { redirect } from "react-router";

import type { TArea } from "@/features/auth/access";
import { accessRedirect } from "@/features/auth/access";
import { configQueryOptions } from "@/features/auth/api/get-config";
import { sessionQueryOptions } from "@/lib/session";
import { queryClient } from "@/lib/query-client";

/** Route loader factory: loads the session (cached) and redirects visitors who do not belong in `area`. */
export function guard(area: TArea, prefetch?: () => Promise<void>) {
  return async () => {
    const [session] = await Promise.all([
      queryClient.ensureQueryData({ ...sessionQueryOptions(), revalidateIfStale: true }),
      prefetch?.(),
    ]);
    const target = accessRedirect(area, session);
    if (target) throw redirect(target);
    return null;
  };
}

/** The sign-in screens need the public config (providers, sign-up); load it with the session. */
export const prefetchConfig = () => queryClient.prefetchQuery(configQueryOptions());
