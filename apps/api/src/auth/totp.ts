import { timingSafeEqual } from "node:crypto";
import { createOTP } from "@better-auth/utils/otp";
import { symmetricDecrypt } from "better-auth/crypto";
import { eq, sql } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import { twoFactors } from "../db/schema.ts";

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
