import { useMutation, useQueryClient } from "@tanstack/react-query";

import type { TSignIn } from "@portal/contracts";

import { authClient } from "@/lib/auth-client";
import { toRequestError } from "@/lib/errors";
import { refreshSession } from "@/lib/session";

/** Email + password sign-in; Better Auth sets the session cookie. */
export async function signInWithEmail({ email, password }: TSignIn): Promise<void> {
  const { error } = await authClient.signIn.email({ email, password });
  if (error) throw toRequestError(error, "Sign-in failed. Please check your email and password.");
}

/** Signs in, then reloads the session so route guards see the new user; resolves with that session. */
export function useSignIn() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: TSignIn) => {
      await signInWithEmail(input);
      return refreshSession(queryClient);
    },
  });
}
