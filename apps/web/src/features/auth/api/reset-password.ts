import { authClient } from "@/lib/auth-client";
import { toRequestError } from "@/lib/errors";

export const INVALID_RESET_LINK_MESSAGE =
  "This password reset link is invalid, has expired or was already used.";

/** Sets a new password with the single-use token from the emailed link. */
export async function resetPassword(input: { token: string; newPassword: string }): Promise<void> {
  const { error } = await authClient.resetPassword(input);
  if (error) throw toRequestError(error, INVALID_RESET_LINK_MESSAGE);
}
