import { useMutation, useQueryClient } from "@tanstack/react-query";

import { addPasskey } from "@/lib/passkey-registration";
import { sessionQueryKey } from "@/lib/session";

import { passkeysQueryKey } from "./get-passkeys";

/**
 * Adds a passkey under the name the person gave it (the browser's prompt, then the server's check). The session
 * is read again too: a passkey is a second step (`secondStep`), and one added right after the password makes
 * this session a two-step one.
 */
export function useAddPasskey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: addPasskey,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: passkeysQueryKey }),
        queryClient.invalidateQueries({ queryKey: sessionQueryKey }),
      ]),
  });
}
