import { isAdmin } from "@/lib/roles";
import type { TSession } from "@/lib/session";

/** The areas of the route table with their own sign-in rules (spec section 2). */
export type TArea = "user" | "admin" | "login" | "admin-login";

/**
 * Where a visitor must go instead of the area, or null when they may stay. Used by the route loaders
 * (before a page renders), by the shells (when the session changes while a page is open) and by the sign-in
 * page (decision 004).
 */
export function accessRedirect(area: TArea, session: TSession | null | undefined): string | null {
  const admin = isAdmin(session?.user);
  switch (area) {
    case "user":
      if (!session) return "/login";
      return admin ? "/admin" : null;
    case "admin":
      return admin ? null : "/admin-login";
    case "login":
      if (!session) return null;
      return admin ? "/admin" : "/";
    case "admin-login":
      return admin ? "/admin" : null;
  }
}
