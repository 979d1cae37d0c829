import { redirect } from "react-router";

import type { TArea } from "@/features/auth/access";
import { accessRedirect } from "@/features/auth/access";
import { sessionQueryOptions } from "@/lib/session";
import { queryClient } from "@/lib/query-client";

/** Route loader factory: loads the session (cached) and redirects visitors who do not belong in `area`. */
export function guard(area: TArea) {
  return async () => {
    const session = await queryClient.ensureQueryData({ ...sessionQueryOptions(), revalidateIfStale: true });
    const target = accessRedirect(area, session);
    if (target) throw redirect(target);
    return null;
  };
}
