import { useMutation, useQueryClient } from "@tanstack/react-query";

import { clearSession } from "@/lib/session";

import { signOut } from "./sign-out";

/** Signs out, then forgets everything cached for the user, so the guards send the visitor to sign-in. */
export function useSignOut() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: signOut,
    onSuccess: () => clearSession(queryClient),
  });
}
