import { authClient } from "@/lib/auth-client";
import { toRequestError } from "@/lib/errors";

export type TSession = NonNullable<Awaited<ReturnType<typeof authClient.getSession>>["data"]>;

/** The signed-in session, or null for an anonymous visitor. */
export async function getSession(): Promise<TSession | null> {
  const { data, error } = await authClient.getSession();
  if (error) {
    if (error.status === 401) return null;
    throw toRequestError(error, "We could not check your sign-in. Please reload the page.");
  }
  return data ?? null;
}
