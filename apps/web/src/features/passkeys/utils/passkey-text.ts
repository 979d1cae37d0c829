import { sinceText } from "@/lib/relative-time";

import type { TPasskey } from "../api/get-passkeys";

/** The person's own name for it; a passkey added without one (elsewhere) still has a label. */
export function passkeyName(passkey: Pick<TPasskey, "name">): string {
  return passkey.name?.trim() || "Unnamed passkey";
}

/** Most recently used first, then most recently added, then by name: the one just used or added is on top. */
export function sortPasskeys<T extends Pick<TPasskey, "name" | "createdAt" | "lastUsedAt">>(
  passkeys: ReadonlyArray<T>,
): T[] {
  const time = (iso: string | null | undefined) => (iso ? Date.parse(iso) : 0);
  return [...passkeys].sort(
    (a, b) =>
      time(b.lastUsedAt) - time(a.lastUsedAt) ||
      time(b.createdAt) - time(a.createdAt) ||
      passkeyName(a).localeCompare(passkeyName(b)),
  );
}

/**
 * Whether the passkey is synced (by a password manager or the device's account, so other devices have it too)
 * or lives on one device or security key only.
 */
export function syncedText(passkey: Pick<TPasskey, "deviceType" | "backedUp">): string | null {
  if (passkey.backedUp === true || passkey.deviceType === "multiDevice") return "Synced across your devices";
  if (passkey.deviceType === "singleDevice") return "On one device or security key only";
  return null;
}

/** One line of what the card says about a passkey; `dateTime` for the moments. */
export type TPasskeyFact = { label: string; value: string; dateTime?: string };

/**
 * What the card says about a passkey: when it was added and last used ("3 hours ago", else the date), and
 * whether it is synced. Each only when the server says it ("Last used" needs the portal's `lastUsedAt` in the
 * list, which Better Auth's plugin does not send today).
 */
export function passkeyFacts(
  passkey: Pick<TPasskey, "createdAt" | "lastUsedAt" | "deviceType" | "backedUp">,
  now = Date.now(),
): TPasskeyFact[] {
  const facts: TPasskeyFact[] = [];
  if (passkey.createdAt) {
    facts.push({ label: "Added", value: sinceText(passkey.createdAt, now), dateTime: passkey.createdAt });
  }
  if (passkey.lastUsedAt) {
    facts.push({
      label: "Last used",
      value: sinceText(passkey.lastUsedAt, now),
      dateTime: passkey.lastUsedAt,
    });
  }
  const synced = syncedText(passkey);
  if (synced) facts.push({ label: "Stored", value: synced });
  return facts;
}

export const addedMessage = (name: string) => `"${name}" was added. You can sign in with it from now on.`;
export const renamedMessage = (name: string) => `The passkey is now called "${name}".`;
/** Removing it here does not delete it from the device, which may still offer it: it would be refused. */
export const removedMessage = (name: string) =>
  `"${name}" was removed and no longer signs you in. You can also delete it from your device or password manager.`;
