import type { TSignIn } from "@portal/contracts";

import { authClient } from "@/lib/auth-client";
import { toRequestError } from "@/lib/errors";
import { getSession } from "@/lib/get-session";
import type { TSession } from "@/lib/get-session";

/** Email + password sign-in; Better Auth sets the session cookie. */
export async function signInWithEmail({ email, password }: TSignIn): Promise<void> {
  const { error } = await authClient.signIn.email({ email, password });
  if (error) throw toRequestError(error, "Sign-in failed. Please check your email and password.");
}

/** Signs in, then reads the new session (its role decides where the person goes); resolves with it. */
export async function signIn(input: TSignIn): Promise<TSession | null> {
  await signInWithEmail(input);
  return getSession();
}
