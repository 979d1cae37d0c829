import { useMutation, useQueryClient } from "@tanstack/react-query";

import { authClient } from "@/lib/auth-client";
import { toRequestError } from "@/lib/errors";

import { passkeysQueryKey } from "./get-passkeys";

export const RENAME_PASSKEY_FAILED = "The passkey could not be renamed. Please try again.";

/** POST /api/auth/passkey/update-passkey: gives one of the person's passkeys a new name. */
export async function renamePasskey({ id, name }: { id: string; name: string }): Promise<void> {
  const { error } = await authClient.$fetch("/passkey/update-passkey", {
    method: "POST",
    body: { id, name },
  });
  if (error) throw toRequestError(error, RENAME_PASSKEY_FAILED);
}

export function useRenamePasskey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: renamePasskey,
    onSettled: () => queryClient.invalidateQueries({ queryKey: passkeysQueryKey }),
  });
}
