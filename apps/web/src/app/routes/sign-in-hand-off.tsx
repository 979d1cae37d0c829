import { useEffect } from "react";
import { useLocation } from "react-router";

import { signInPathOf } from "@portal/contracts";

import { ErrorScreen } from "@/components/ui/error-screen";
import { CheckingAuthentication } from "@/components/ui/spinner";

/** Where this document was loaded; the server answers sign-in paths with the sign-in page, never the SPA. */
const documentPath = window.location.pathname;

/**
 * /login, /admin-login and /reset-password inside the SPA: the sign-in screens are their own page (decision
 * 004), so a navigation here (a guard's redirect, Logout, a link) becomes a full page load of that page in the
 * history entry the router just made, which keeps back and forward in order.
 */
export function SignInHandOff() {
  const { pathname, search, hash } = useLocation();
  // Only if the server gave this document for a sign-in path: loading it again would never end.
  const servedBySpa = signInPathOf(documentPath) !== null;

  useEffect(() => {
    if (!servedBySpa) window.location.replace(`${pathname}${search}${hash}`);
  }, [servedBySpa, pathname, search, hash]);

  if (servedBySpa)
    return <ErrorScreen message="The sign-in page could not be loaded. Please try again later." />;
  return <CheckingAuthentication />;
}
