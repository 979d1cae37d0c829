import type { ApiErrorCode } from "@portal/contracts";
import { eq } from "drizzle-orm";
import { recordAudit } from "../../audit/audit.ts";
import type { Database } from "../../db/client.ts";
import { twoFactors } from "../../db/schema.ts";
import type { EffectiveSignInPolicy } from "../../signin/policy.ts";
import type { AccountLimits } from "../account-limits.ts";
import {
  alreadyAudited,
  authError,
  onPath,
  outcomeOf,
  pendingPerson,
  signedInPerson,
  sourceOf,
  type Concern,
} from "./context.ts";

export const EMAIL_CODES_OFF = "EMAIL_CODES_OFF" satisfies ApiErrorCode;
export const EMAIL_CODE_NOT_NEEDED = "EMAIL_CODE_NOT_NEEDED" satisfies ApiErrorCode;

export interface EmailCodeDeps {
  db: Database;
  policy: () => Promise<EffectiveSignInPolicy>;
  /** The account's second-step window (the lock of TOTP and backup codes): each code sent counts in it too. */
  codes: AccountLimits;
}

const SEND = "/two-factor/send-otp";
const VERIFY = "/two-factor/verify-otp";

/**
 * Six-digit codes by email as the second step (issue 24), only while the firm allows them (/admin/settings). Better
 * Auth's OTP endpoints send and check the code (ten minutes, single use, five tries per code); here: the policy, the
 * account's second-step lock (a code sent counts in it, so the lock also limits the mail a password can trigger),
 * enrolment only after the password was confirmed (`/two-factor/enable` made the person's two-factor row), and the
 * audit of each code sent.
 */
export function emailCodeConcern({ db, policy, codes }: EmailCodeDeps): Concern {
  return {
    before: [
      {
        paths: onPath(SEND, VERIFY),
        run: async (ctx) => {
          if (!(await policy()).emailCodes) {
            throw authError(
              "FORBIDDEN",
              EMAIL_CODES_OFF,
              "The firm does not offer codes by email. Use your authenticator app, a passkey or a backup code.",
            );
          }
          const signedIn = await signedInPerson(ctx);
          if (!signedIn) return; // A pending sign-in: Better Auth checks its cookie.
          const [row] = await db
            .select({ id: twoFactors.id })
            .from(twoFactors)
            .where(eq(twoFactors.userId, signedIn.userId));
          if (signedIn.twoFactorEnabled || !row) {
            throw authError(
              "BAD_REQUEST",
              EMAIL_CODE_NOT_NEEDED,
              signedIn.twoFactorEnabled
                ? "Two-step verification is already on for this account."
                : "Confirm your password to set up two-step verification first.",
            );
          }
        },
      },
      {
        paths: onPath(SEND),
        run: async (ctx) => {
          const person = (await signedInPerson(ctx)) ?? (await pendingPerson(ctx));
          if (!person) return;
          const decision = await codes.take(person.userId);
          if (decision.allowed) return;
          await recordAudit(db, {
            action: "auth.mfa.code_sent",
            outcome: "rate_limited",
            actorUserId: person.userId,
            actorEmail: person.email,
            details: { retryAfterSeconds: decision.retryAfterSeconds },
            ...sourceOf(ctx),
          });
          throw alreadyAudited(
            authError(
              "TOO_MANY_REQUESTS",
              "TOO_MANY_FAILED_ATTEMPTS",
              `Too many codes for this account. Try again in ${decision.retryAfterSeconds} seconds.`,
              { "Retry-After": String(decision.retryAfterSeconds) },
            ),
          );
        },
      },
    ],
    after: [
      {
        // The second step's methods as the firm allows them: Better Auth lists "otp" whenever codes by email are
        // configured, which they always are here (the policy decides per request).
        paths: onPath("/sign-in/email"),
        run: async (ctx) => {
          const { ok, body } = outcomeOf(ctx);
          const methods = body.twoFactorMethods;
          if (!ok || body.twoFactorRedirect !== true || !Array.isArray(methods)) return;
          if ((await policy()).emailCodes) return;
          return ctx.json({ ...body, twoFactorMethods: methods.filter((method) => method !== "otp") });
        },
      },
      {
        paths: onPath(SEND),
        run: async (ctx) => {
          const person = (await signedInPerson(ctx)) ?? (await pendingPerson(ctx));
          if (!person || !outcomeOf(ctx).ok) return;
          await recordAudit(db, {
            action: "auth.mfa.code_sent",
            outcome: "success",
            actorUserId: person.userId,
            actorEmail: person.email,
            details: { method: "email" },
            ...sourceOf(ctx),
          });
        },
      },
    ],
  };
}
