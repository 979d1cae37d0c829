import { useMutation, useQueryClient } from "@tanstack/react-query";

import { refreshSession } from "@/lib/session";
import { authClient } from "@/lib/auth-client";
import { toRequestError } from "@/lib/errors";

/** Changes the signed-in user's display name. */
export async function updateUserName(name: string): Promise<void> {
  const { error } = await authClient.updateUser({ name });
  if (error) throw toRequestError(error, "Your name could not be saved.");
}

export function useUpdateUserName() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateUserName,
    onSuccess: () => refreshSession(queryClient),
  });
}
