import { useMutation, useQueryClient } from "@tanstack/react-query";

import { authClient } from "@/lib/auth-client";
import { toRequestError } from "@/lib/errors";
import { sessionQueryKey } from "@/lib/session";

import { passkeysQueryKey } from "./get-passkeys";

export const REMOVE_PASSKEY_FAILED = "The passkey could not be removed. Please try again.";

/**
 * POST /api/auth/passkey/delete-passkey: it no longer signs the person in. Refused (403 LAST_SECOND_STEP, with
 * the server's reason) when it is the last second step of someone whose role requires one.
 */
export async function removePasskey(id: string): Promise<void> {
  const { error } = await authClient.$fetch("/passkey/delete-passkey", { method: "POST", body: { id } });
  if (error) throw toRequestError(error, REMOVE_PASSKEY_FAILED);
}

export function useRemovePasskey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: removePasskey,
    // Also after a refusal: the list shows what is left. The session says whether a second step remains.
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: passkeysQueryKey }),
        queryClient.invalidateQueries({ queryKey: sessionQueryKey }),
      ]),
  });
}
