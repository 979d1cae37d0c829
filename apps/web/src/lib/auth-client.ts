// Lets the declaration emit of `authClient` name the access-control types of the admin plugin.
import type {} from "better-auth/plugins/access";
import { adminClient, genericOAuthClient, jwtClient } from "better-auth/client/plugins";
import { createAuthClient } from "better-auth/react";

/** Better Auth is served by the portal API on the same origin, under /api/auth. */
export const authClient = createAuthClient({
  baseURL: window.location.origin,
  plugins: [adminClient(), jwtClient(), genericOAuthClient()],
});
