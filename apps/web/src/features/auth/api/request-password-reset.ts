import { authClient } from "@/lib/auth-client";
import { toRequestError } from "@/lib/errors";

/**
 * Asks the server to email a reset link that lands on /reset-password. The server answers the same way
 * whether or not the email has an account.
 */
export async function requestPasswordReset(email: string): Promise<void> {
  const { error } = await authClient.requestPasswordReset({ email, redirectTo: "/reset-password" });
  if (error) throw toRequestError(error, "The reset email could not be sent. Please try again.");
}
