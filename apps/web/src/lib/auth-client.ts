import { createAuthClient } from "better-auth/client";
import {
  genericOAuthClient,
  inferAdditionalFields,
  jwtClient,
  twoFactorClient,
} from "better-auth/client/plugins";

import { authFetch } from "./session-request";

/**
 * Better Auth is served by the portal API on the same origin, under /api/auth. This client is on the first
 * load of /login, so it carries only what the SPA calls: sign-in, sign-up, reset, the session (read through
 * TanStack Query, hence the framework-free client), `token()` (jwt plugin) and `signIn.oauth2()` (generic
 * OAuth plugin) and two-step verification (twoFactor plugin: the second step of a sign-in here, enrolment in
 * the SPA; decision 006). The admin plugin's client adds nothing the SPA calls; the role it would type on the user is
 * declared here instead. Back-office changes go through the portal API, never through Better Auth's admin API.
 */
export const authClient = createAuthClient({
  baseURL: window.location.origin,
  fetchOptions: { customFetchImpl: authFetch },
  plugins: [
    jwtClient(),
    genericOAuthClient(),
    twoFactorClient(),
    inferAdditionalFields({ user: { role: { type: "string", required: false, input: false } } }),
  ],
});
