import { redirect } from "react-router";
import type { LoaderFunctionArgs } from "react-router";

import { requiresTwoFactor } from "@portal/contracts";

import { configQueryOptions } from "@/features/auth/api/two-factor";
import type { TArea } from "@/features/auth/access";
import { accessRedirect } from "@/features/auth/access";
import { sessionQueryOptions } from "@/lib/session";
import type { TSession } from "@/lib/session";
import { queryClient } from "@/lib/query-client";
import { sendSessionRequest } from "@/lib/session-request";

/**
 * Starts reading the session, which the guard then awaits instead of asking again, and the public settings
 * the shell needs next (whether two-step verification must be set up first), so that the shell's queries do
 * not wait for them after the session (decision 015).
 */
export function prefetchSession() {
  sendSessionRequest();
  void queryClient.prefetchQuery(sessionQueryOptions());
  void queryClient.prefetchQuery(configQueryOptions);
}

/** Route loader factory: loads the session (cached) and redirects visitors who do not belong in `area`. */
export function guard(area: TArea) {
  return async ({ request }: LoaderFunctionArgs) => {
    const session = await queryClient.ensureQueryData({ ...sessionQueryOptions(), revalidateIfStale: true });
    const target = accessRedirect(area, session);
    if (target) throw redirect(target);
    if (session) prefetchShell(area, session, new URL(request.url).search);
    return null;
  };
}

/**
 * What the area's shell asks for as it renders, asked for as soon as the visitor is let in (decision 015):
 * the settings that say whether two-step verification must be set up first (both shells), then the
 * enrolment screen for someone who must, or a client's or employee's workbooks (sidebar and workbook view:
 * those of the client in `search`'s `?client=`), which the server refuses until then.
 */
function prefetchShell(area: TArea, session: TSession, search: string) {
  const config = queryClient.ensureQueryData(configQueryOptions);
  const { user } = session;
  void (async () => {
    const { mfaRequiredRoles } = await config;
    if (!user.twoFactorEnabled && requiresTwoFactor(user.role, mfaRequiredRoles)) {
      await import("@/features/auth/components/two-factor-setup");
    } else if (area === "user") {
      const { prefetchViewedWorkbooks } = await import("@/features/workbooks/api/prefetch-workbooks");
      await prefetchViewedWorkbooks(queryClient, search, user.role);
    }
  })().catch(() => undefined); // the shell asks again, and shows any failure, as it renders
}
