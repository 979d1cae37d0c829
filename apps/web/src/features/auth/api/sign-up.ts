import type { TSignUp } from "@portal/contracts";

import { authClient } from "@/lib/auth-client";
import { toRequestError } from "@/lib/errors";

/**
 * Create Account (spec section 4). The answer is the same whether or not the address already has an
 * account (no enumeration, DEVIATIONS D33): the new person confirms their email from the link the portal
 * mails them, which signs them in; their analytics access is set up on the server at that moment.
 */
export async function createAccount({ name, email, password, role }: TSignUp): Promise<void> {
  const { error } = await authClient.signUp.email({
    name,
    email,
    password,
    callbackURL: "/",
    // The editor/author choice (Better Auth keeps `role` itself out of sign-up bodies).
    ...({ signUpRole: role } as Record<string, string>),
  });
  if (error) throw toRequestError(error, "Your account could not be created. Please try again.");
}
