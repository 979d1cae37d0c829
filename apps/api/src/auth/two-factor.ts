import { timingSafeEqual } from "node:crypto";
import { createOTP } from "@better-auth/utils/otp";
import { symmetricDecrypt, symmetricEncrypt } from "better-auth/crypto";
import { eq, sql } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import { sessions, twoFactors, users } from "../db/schema.ts";
import { recordAudit, type AuditSource } from "../audit/audit.ts";
import type { Auth } from "./auth.ts";

/** The issuer authenticator apps show next to the account (the twoFactor plugin's `issuer`). */
export const TOTP_ISSUER = "Meridian Client Portal";

/** The twoFactor plugin's TOTP settings: 30-second steps (set in auth.ts), one step either side accepted (its verify window). */
export const TOTP_PERIOD_SECONDS = 30;
const TOTP_WINDOW = 1;

export const TOTP_CODE_USED = "TOTP_CODE_USED";
export const TOTP_CODE_USED_MESSAGE =
  "This code has already been used. Wait for the next code in your authenticator app.";

/** What a claim found: the code's time step is now taken, it was taken already, or the code is not right. */
export type TotpClaim =
  { status: "claimed"; release(): Promise<void> } | { status: "used" } | { status: "unknown" };

/**
 * Takes a TOTP code of the person's authenticator for single use (ASVS 5.0 6.5.1): finds the time step
 * within the plugin's window whose code it is, and records that step as used in one statement, so two
 * requests with the same code cannot both pass. Better Auth then checks the code as before (lock-out and
 * all); `release` gives the step back when it refuses for another reason (an expired sign-in step, say).
 * "unknown" (no enrolment, or a wrong code) leaves everything to Better Auth.
 */
export async function claimTotpCode(
  /** Better Auth's secret configuration (`ctx.context.secretConfig`), which encrypts the TOTP secret. */
  secretConfig: Parameters<typeof symmetricDecrypt>[0]["key"],
  db: Database,
  userId: string,
  code: string,
): Promise<TotpClaim> {
  const [row] = await db
    .select({ id: twoFactors.id, secret: twoFactors.secret })
    .from(twoFactors)
    .where(eq(twoFactors.userId, userId));
  if (!row || !/^\d{6}$/.test(code)) return { status: "unknown" };
  const otp = createOTP(await symmetricDecrypt({ key: secretConfig, data: row.secret }));
  const now = Math.floor(Date.now() / 1000 / TOTP_PERIOD_SECONDS);
  let step: number | undefined;
  for (let i = -TOTP_WINDOW; i <= TOTP_WINDOW; i++) {
    if (timingSafeEqual(Buffer.from(await otp.hotp(now + i)), Buffer.from(code))) step = now + i;
  }
  if (step === undefined) return { status: "unknown" };
  const oldest = now - TOTP_WINDOW - 1;
  const claimed = await db
    .update(twoFactors)
    .set({
      usedTotpSteps: sql`array_append(array(select s from unnest(${twoFactors.usedTotpSteps}) s where s >= ${oldest}), ${step}::bigint)`,
    })
    .where(sql`${twoFactors.id} = ${row.id} and not (${step}::bigint = any(${twoFactors.usedTotpSteps}))`)
    .returning({ id: twoFactors.id });
  if (claimed.length === 0) return { status: "used" };
  return {
    status: "claimed",
    release: async () => {
      await db
        .update(twoFactors)
        .set({ usedTotpSteps: sql`array_remove(${twoFactors.usedTotpSteps}, ${step}::bigint)` })
        .where(eq(twoFactors.id, row.id));
    },
  };
}

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
