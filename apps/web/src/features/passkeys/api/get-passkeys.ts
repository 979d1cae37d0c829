import { queryOptions, useQuery } from "@tanstack/react-query";
import { z } from "zod";

import { authClient } from "@/lib/auth-client";
import { toRequestError } from "@/lib/errors";

export const LOAD_PASSKEYS_FAILED = "Your passkeys could not be loaded. Please try again.";

/** Better Auth's client reads ISO times as dates; either way they are kept as ISO strings. */
const ZTimeSchema = z
  .union([z.date(), z.iso.datetime({ offset: true })])
  .transform((value) => (typeof value === "string" ? new Date(value).toISOString() : value.toISOString()));

/**
 * One of the signed-in person's passkeys as Better Auth's passkey plugin lists it (its row without the public
 * key). `lastUsedAt` is the portal's own column, which the plugin does not list today: shown when it comes.
 */
export const ZPasskeySchema = z.object({
  id: z.string(),
  name: z.string().nullish(),
  createdAt: ZTimeSchema.nullish(),
  lastUsedAt: ZTimeSchema.nullish(),
  /** "multiDevice": synced by a password manager or the device's account; "singleDevice": on one device. */
  deviceType: z.string().nullish(),
  backedUp: z.boolean().nullish(),
});
export type TPasskey = z.infer<typeof ZPasskeySchema>;

const ZPasskeyListSchema = z.array(ZPasskeySchema);

export const passkeysQueryKey = ["me", "passkeys"] as const;

/** GET /api/auth/passkey/list-user-passkeys: the signed-in person's passkeys. */
export async function getPasskeys(): Promise<TPasskey[]> {
  const { data, error } = await authClient.$fetch<unknown>("/passkey/list-user-passkeys", { method: "GET" });
  if (error) throw toRequestError(error, LOAD_PASSKEYS_FAILED);
  const parsed = ZPasskeyListSchema.safeParse(data);
  if (!parsed.success) throw toRequestError({}, LOAD_PASSKEYS_FAILED);
  return parsed.data;
}

export const passkeysQueryOptions = () => queryOptions({ queryKey: passkeysQueryKey, queryFn: getPasskeys });

export function usePasskeys() {
  return useQuery(passkeysQueryOptions());
}
