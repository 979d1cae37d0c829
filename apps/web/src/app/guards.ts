import { redirect } from "react-router";
import type { LoaderFunctionArgs } from "react-router";

import { secondStepOf } from "@/features/auth/api/two-factor";
import type { TArea } from "@/features/auth/access";
import { sendWorkbookStart } from "@/features/workbooks/api/start-request";
import { accessRedirect } from "@/features/auth/access";
import { sessionQueryOptions } from "@/lib/session";
import type { TSession } from "@/lib/session";
import { queryClient } from "@/lib/query-client";
import { sendSessionRequest } from "@/lib/session-request";

/**
 * Starts reading the session, which the guard then awaits instead of asking again (decision 015). The session
 * also says whether two-step verification must be set up first (`secondStep`), so the shell needs nothing else
 * before it knows what to show.
 */
export function prefetchSession() {
  sendSessionRequest();
  void queryClient.prefetchQuery(sessionQueryOptions());
}

/** Route loader factory: loads the session (cached) and redirects visitors who do not belong in `area`. */
export function guard(area: TArea) {
  return async ({ request }: LoaderFunctionArgs) => {
    const session = await queryClient.ensureQueryData({ ...sessionQueryOptions(), revalidateIfStale: true });
    const target = accessRedirect(area, session);
    if (target) throw redirect(target);
    if (session) prefetchShell(area, session, new URL(request.url));
    return null;
  };
}

/**
 * What the area's shell asks for as it renders, asked for as soon as the visitor is let in (decision 015): the
 * enrolment screen for someone who must set up two-step verification first (the session's `secondStep`), or a
 * client's or employee's workbooks (sidebar and workbook view: those of the client in `url`'s `?client=`),
 * which the server refuses until then, and to a session that must sign in again with its passkey. On a page
 * that shows a workbook, the first load's list and first frame come in one answer that the page's server
 * answer had the browser start already (decision 024).
 */
function prefetchShell(area: TArea, session: TSession, url: URL) {
  const status = secondStepOf(session)?.status;
  const { user } = session;
  void (async () => {
    if (status === "required") {
      await import("@/features/auth/components/two-factor-setup");
    } else if (area === "user" && status !== "passkey_sign_in") {
      sendWorkbookStart(url);
      const { prefetchViewedWorkbooks } = await import("@/features/workbooks/api/prefetch-workbooks");
      await prefetchViewedWorkbooks(queryClient, url.search, user.role);
    }
  })().catch(() => undefined); // the shell asks again, and shows any failure, as it renders
}
