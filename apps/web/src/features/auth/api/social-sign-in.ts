import type { TSocialProviderId } from "@portal/contracts";

import { authClient } from "@/lib/auth-client";
import { toRequestError } from "@/lib/errors";

const redirects = { callbackURL: "/", errorCallbackURL: "/login" } as const;

/** Starts a redirect sign-in with a social provider or the generic OIDC provider. */
export async function signInWithProvider(provider: TSocialProviderId): Promise<void> {
  const { error } =
    provider === "oidc"
      ? await authClient.signIn.oauth2({ providerId: "oidc", ...redirects })
      : await authClient.signIn.social({ provider, ...redirects });
  if (error) throw toRequestError(error, "Sign-in with this provider is not available right now.");
}
