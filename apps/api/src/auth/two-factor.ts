import { createOTP } from "@better-auth/utils/otp";
import { symmetricEncrypt } from "better-auth/crypto";
import { eq } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import { sessions, twoFactors, users } from "../db/schema.ts";
import { recordAudit, type AuditSource } from "../audit/audit.ts";
import type { Auth } from "./auth.ts";
import { TOTP_ISSUER } from "./totp.ts";

/** The otpauth:// URI of a raw TOTP secret, as `/two-factor/enable` answers it. */
export function totpUri(secret: string, email: string): string {
  return createOTP(secret).url(TOTP_ISSUER, email);
}

/** The base32 key inside an otpauth:// URI (what a person types into an authenticator app). */
export function totpKeyOf(uri: string): string {
  return new URL(uri).searchParams.get("secret") ?? "";
}

/**
 * Sets up two-step verification for a user with a known TOTP secret, server-side, as a confirmed
 * enrolment would leave it (encrypted secret, ten random backup codes nobody is shown, the user flag).
 * Only the demo seed uses it (DEVIATIONS D30); real people enrol themselves in the portal.
 * Returns false when the user already has two-step verification (theirs is kept).
 */
export async function enrolWithSecret(auth: Auth, db: Database, userId: string, secret: string) {
  const [existing] = await db
    .select({ id: twoFactors.id })
    .from(twoFactors)
    .where(eq(twoFactors.userId, userId));
  if (existing) return false;
  const ctx = await auth.$context;
  const codes = Array.from({ length: 10 }, () => crypto.randomUUID().replace(/-/g, "").slice(0, 10));
  await db.transaction(async (tx) => {
    await tx.insert(twoFactors).values({
      id: crypto.randomUUID(),
      userId,
      secret: await symmetricEncrypt({ key: ctx.secretConfig, data: secret }),
      backupCodes: await symmetricEncrypt({ key: ctx.secretConfig, data: JSON.stringify(codes) }),
      verified: true,
    });
    await tx.update(users).set({ twoFactorEnabled: true }).where(eq(users.id, userId));
    await recordAudit(tx, {
      action: "auth.mfa.enabled",
      outcome: "success",
      actorEmail: "system",
      targetType: "user",
      targetId: userId,
      details: { method: "demo seed" },
    });
  });
  return true;
}

/**
 * Recovery for someone who lost their authenticator and their backup codes (decision 006): removes their
 * enrolment and ends their sessions, in one transaction and audited. Whoever's role requires two-step
 * verification sets it up again at the next sign-in. Returns false when they had none (nothing changes but the audit row).
 */
export async function resetTwoFactor(
  db: Database,
  userId: string,
  actor: { userId?: string | null; email: string } & AuditSource,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const removed = await tx
      .delete(twoFactors)
      .where(eq(twoFactors.userId, userId))
      .returning({ id: twoFactors.id });
    if (removed.length > 0) {
      await tx.update(users).set({ twoFactorEnabled: false }).where(eq(users.id, userId));
      await tx.delete(sessions).where(eq(sessions.userId, userId));
    }
    // A reset with nothing to reset is recorded too: every request about a person leaves a row.
    await recordAudit(tx, {
      action: "auth.mfa.reset",
      outcome: "success",
      ...(removed.length === 0 ? { details: { nothingToReset: true } } : {}),
      actorUserId: actor.userId ?? null,
      actorEmail: actor.email,
      targetType: "user",
      targetId: userId,
      ip: actor.ip ?? null,
      userAgent: actor.userAgent ?? null,
      requestId: actor.requestId ?? null,
    });
    return removed.length > 0;
  });
}
