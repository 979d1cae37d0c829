import type { ApiErrorCode } from "@portal/contracts";
import { recordAudit } from "../../audit/audit.ts";
import type { Database } from "../../db/client.ts";
import type { AccountLimits } from "../account-limits.ts";
import { undoIfUnavailable } from "../../lib/request-faults.ts";
import { passkeyOwner } from "./passkeys.ts";
import {
  alreadyAudited,
  authError,
  emailOf,
  onPath,
  outcomeOf,
  pendingPerson,
  signedInPerson,
  sourceOf,
  type Concern,
  type HookContext,
} from "./context.ts";

export const TOO_MANY_FAILED_ATTEMPTS = "TOO_MANY_FAILED_ATTEMPTS" satisfies ApiErrorCode;

const SIGN_IN = "/sign-in/email";
const PASSKEY_SIGN_IN = "/passkey/verify-authentication";
const SECOND_STEPS = ["/two-factor/verify-totp", "/two-factor/verify-backup-code", "/two-factor/verify-otp"];

export interface LockDeps {
  db: Database;
  /** Password guesses, keyed by the account's email as Better Auth normalises it. */
  passwords: AccountLimits;
  /** Second-step codes (TOTP and backup codes), keyed by the account's user id. */
  codes: AccountLimits;
}

/** Who a second-step guess is against: the person whose sign-in step is open, or the signed-in one. */
async function secondStepKey(ctx: HookContext): Promise<{ key: string; email: string } | null> {
  const person = (await signedInPerson(ctx)) ?? (await pendingPerson(ctx));
  return person ? { key: person.userId, email: person.email } : null;
}

/**
 * The per-account lock (decision 008): every password guess and every second-step code is counted before
 * Better Auth evaluates it, whatever the body's encoding (the hooks see the body Better Auth parsed), and
 * refused with 429 and Retry-After once the account's window is used up. A success clears the count.
 */
export function lockConcern({ db, passwords, codes }: LockDeps): Concern {
  async function refuse(
    ctx: HookContext,
    retryAfterSeconds: number,
    who: { email: string; userId?: string },
  ) {
    await recordAudit(db, {
      action: ctx.path === SIGN_IN || ctx.path === PASSKEY_SIGN_IN ? "auth.sign_in" : "auth.mfa.verify",
      outcome: "rate_limited",
      actorUserId: who.userId ?? null,
      actorEmail: who.email,
      details: { method: ctx.path, retryAfterSeconds },
      ...sourceOf(ctx),
    });
    throw alreadyAudited(
      authError(
        "TOO_MANY_REQUESTS",
        TOO_MANY_FAILED_ATTEMPTS,
        ctx.path === SIGN_IN || ctx.path === PASSKEY_SIGN_IN
          ? `Too many failed sign-in attempts for this account. Try again in ${retryAfterSeconds} seconds, or reset your password.`
          : `Too many wrong codes for this account. Try again in ${retryAfterSeconds} seconds.`,
        { "Retry-After": String(retryAfterSeconds) },
      ),
    );
  }

  return {
    before: [
      {
        paths: onPath(SIGN_IN),
        run: async (ctx) => {
          const email = emailOf(ctx);
          if (!email) return;
          const decision = await passwords.take(email);
          if (!decision.allowed) await refuse(ctx, decision.retryAfterSeconds, { email });
          // The database away before the password is judged: this guess does not count (answered 503).
          undoIfUnavailable(() => passwords.giveBack(email));
        },
      },
      {
        // A passkey attempt counts against the account whose passkey it presents, as a password guess does
        // (an unknown passkey names no account: the per-address limit still applies).
        paths: onPath(PASSKEY_SIGN_IN),
        run: async (ctx) => {
          const owner = await passkeyOwner(db, ctx);
          if (!owner) return;
          const email = owner.email.toLowerCase();
          const decision = await passwords.take(email);
          if (!decision.allowed)
            await refuse(ctx, decision.retryAfterSeconds, { email, userId: owner.userId });
          undoIfUnavailable(() => passwords.giveBack(email));
        },
      },
      {
        paths: onPath(...SECOND_STEPS),
        run: async (ctx) => {
          const who = await secondStepKey(ctx);
          if (!who) return;
          const decision = await codes.take(who.key);
          if (!decision.allowed) {
            await refuse(ctx, decision.retryAfterSeconds, { email: who.email, userId: who.key });
          }
          undoIfUnavailable(() => codes.giveBack(who.key));
        },
      },
    ],
    after: [
      {
        paths: onPath(PASSKEY_SIGN_IN),
        run: async (ctx) => {
          const made = ctx.context.newSession;
          if (made && outcomeOf(ctx).ok) await passwords.clear(made.user.email.toLowerCase());
        },
      },
      {
        // The right password (also when the second step follows) clears the account's password count.
        paths: onPath(SIGN_IN),
        run: async (ctx) => {
          const email = emailOf(ctx);
          if (email && outcomeOf(ctx).ok) await passwords.clear(email);
        },
      },
      {
        paths: onPath(...SECOND_STEPS),
        run: async (ctx) => {
          if (!outcomeOf(ctx).ok) return;
          const who = await secondStepKey(ctx);
          if (who) await codes.clear(who.key);
        },
      },
    ],
  };
}
