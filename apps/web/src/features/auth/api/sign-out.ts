import { useMutation, useQueryClient } from "@tanstack/react-query";

import { authClient } from "@/lib/auth-client";
import { toRequestError } from "@/lib/errors";
import { clearSession } from "@/lib/session";

export async function signOut(): Promise<void> {
  const { error } = await authClient.signOut();
  if (error) throw toRequestError(error, "Sign-out failed. Please try again.");
}

/** Signs out, then forgets everything cached for the user, so the guards send the visitor to sign-in. */
export function useSignOut() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: signOut,
    onSuccess: () => clearSession(queryClient),
  });
}
