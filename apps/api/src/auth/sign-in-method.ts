import type { TSignInMethod } from "@portal/contracts";

/**
 * How a new session was reached, from the Better Auth endpoint that made it (issue 24): the password alone, the
 * password then a code (authenticator app, email or backup code; also the session Better Auth makes anew when
 * someone confirms their enrolment), a passkey, or a social or single sign-on provider. `null` for a session
 * made by the portal's own code (an accepted invitation signs in through /sign-in/email, hence `password`).
 */
export function signInMethodOf(path: string | undefined): TSignInMethod | null {
  if (!path) return null;
  if (path === "/sign-in/email" || path === "/verify-email") return "password";
  if (path.startsWith("/two-factor/")) return "code";
  if (path === "/passkey/verify-authentication") return "passkey";
  if (path.startsWith("/callback/") || path.startsWith("/oauth2/callback/") || path.startsWith("/sign-in/")) {
    return "social";
  }
  return null;
}

/** A sign-in that already took two steps (the admin gate and the firm's two-step policy accept it). */
export function isTwoStepSignIn(method: string | null | undefined): boolean {
  return method === "code" || method === "passkey" || method === "password_passkey";
}
