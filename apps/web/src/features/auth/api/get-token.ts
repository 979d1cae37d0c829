import { authClient } from "@/lib/auth-client";
import { toRequestError } from "@/lib/errors";

/** A short-lived JWT for the signed-in user (Better Auth jwt plugin, GET /api/auth/token). */
export async function getToken(): Promise<string> {
  const { data, error } = await authClient.token();
  if (error || !data?.token) {
    throw toRequestError(error ?? {}, "We could not confirm your new account. Please sign in and try again.");
  }
  return data.token;
}
