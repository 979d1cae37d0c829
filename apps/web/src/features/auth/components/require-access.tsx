import type { ReactNode } from "react";
import { Navigate } from "react-router";

import { CheckingAuthentication } from "@/components/ui/spinner";
import { useSession } from "@/lib/session";

import { accessRedirect } from "../access";
import type { TArea } from "../access";

/** Keeps a signed-in area in line with the session while it is open (sign-out, expiry, another tab). */
export function RequireAccess({ area, children }: { area: TArea; children: ReactNode }) {
  const { data: session, isPending } = useSession();
  if (isPending) return <CheckingAuthentication />;
  const redirect = accessRedirect(area, session);
  if (redirect) return <Navigate to={redirect} replace />;
  return children;
}
