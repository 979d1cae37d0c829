import { createHash, randomBytes } from "node:crypto";

/** A new single-use link token: 32 random bytes, base64url (43 characters). Only the email carries it. */
export function newInvitationToken(): string {
  return randomBytes(32).toString("base64url");
}

/**
 * What the database keeps of a token: its SHA-256. The token has 256 bits of entropy, so a fast hash is
 * enough (nothing to guess), and a copy of the database holds no working link.
 */
export function invitationTokenHash(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}
