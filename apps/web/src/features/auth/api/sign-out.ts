import { authClient } from "@/lib/auth-client";
import { toRequestError } from "@/lib/errors";

export async function signOut(): Promise<void> {
  const { error } = await authClient.signOut();
  if (error) throw toRequestError(error, "Sign-out failed. Please try again.");
}
