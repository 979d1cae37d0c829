import type { TSignUp } from "@portal/contracts";

import { authClient } from "@/lib/auth-client";
import { AppRequestError, toRequestError } from "@/lib/errors";
import { getSession } from "@/lib/get-session";
import type { TSession } from "@/lib/get-session";

import { getToken } from "./get-token";
import { provisionAnalyticsUser } from "./provision";

/** Creates the account with Better Auth; on success the new user is also signed in (session cookie). */
export async function signUpWithEmail({ name, email, password }: Omit<TSignUp, "role">): Promise<void> {
  const { error } = await authClient.signUp.email({ name, email, password });
  if (error) throw toRequestError(error, "Your account could not be created. Please try again.");
}

/**
 * Create Account (spec section 4): create the account, get a JWT for it, ask the API to provision the
 * analytics user, then read the new session. Resolves with that session.
 */
export async function createAccount({ name, email, password, role }: TSignUp): Promise<TSession | null> {
  await signUpWithEmail({ name, email, password });
  try {
    const token = await getToken();
    await provisionAnalyticsUser({ name, email, role }, token);
  } catch (error) {
    const reason = error instanceof AppRequestError ? ` ${error.message}` : "";
    throw new AppRequestError(
      `Your account was created, but your report access could not be set up.${reason} Please contact your advisor.`,
    );
  }
  return getSession();
}
