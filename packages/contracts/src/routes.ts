/**
 * The sign-in screens. They are their own small page (apps/web `login.html`, decision 004): the server answers
 * these paths with it and every other client-side route with the SPA's `index.html`; the SPA hands any in-app
 * navigation to them over to a full page load.
 */
// /invitation: where an invited client or employee chooses their password (DEVIATIONS D55).
export const SIGN_IN_PATHS = ["/login", "/admin-login", "/reset-password", "/invitation"] as const;
export type TSignInPath = (typeof SIGN_IN_PATHS)[number];

/** The sign-in screen a URL path names (one trailing slash allowed), or null for any other path. */
export function signInPathOf(pathname: string): TSignInPath | null {
  const path = pathname.length > 1 && pathname.endsWith("/") ? pathname.slice(0, -1) : pathname;
  return SIGN_IN_PATHS.find((candidate) => candidate === path) ?? null;
}
