import { recordAudit, type AuditEvent, type AuditOutcome } from "../../audit/audit.ts";
import type { Database } from "../../db/client.ts";
import { passkeyOwner } from "./passkeys.ts";
import {
  emailOf,
  onPath,
  outcomeOf,
  pendingPerson,
  signedInPerson,
  sourceOf,
  type AuthPerson,
  type Concern,
  type HookContext,
} from "./context.ts";

const SECOND_STEP_METHODS: Record<string, string> = {
  "/two-factor/verify-totp": "totp",
  "/two-factor/verify-backup-code": "backup_code",
  "/two-factor/verify-otp": "email_code",
};

function outcome(ctx: HookContext): { outcome: AuditOutcome; details?: Record<string, unknown> } {
  const { ok, status, code } = outcomeOf(ctx);
  if (ok) return { outcome: "success" };
  return {
    outcome: status === 429 ? "rate_limited" : status === 403 ? "denied" : "failure",
    details: { status, code },
  };
}

/** What a signed-in person's two-factor request is, for the trail (null: nothing to record). */
function twoFactorAction(path: string, person: AuthPerson): AuditEvent["action"] | null {
  if (path === "/two-factor/enable") return "auth.mfa.enrolment_started";
  if (path === "/two-factor/disable") return "auth.mfa.disabled";
  if (path === "/two-factor/generate-backup-codes") return "auth.mfa.backup_codes_regenerated";
  if ((path === "/two-factor/verify-totp" || path === "/two-factor/verify-otp") && !person.twoFactorEnabled) {
    return "auth.mfa.enabled";
  }
  if (path in SECOND_STEP_METHODS) return "auth.mfa.verify";
  return null;
}

/**
 * The audit of Better Auth's paths, from what each endpoint answered: every failed sign-in and second step
 * (whatever the body's encoding), the second step's success, sign-outs, reset and sign-up attempts, and
 * the two-factor changes of a signed-in person. Successful password sign-ins are recorded when their
 * session is created (auth.ts), refusals by the lock and the two-step gate where they refuse.
 */
export function auditConcern(db: Database): Concern {
  const record = (ctx: HookContext, event: Omit<AuditEvent, "outcome"> & Partial<AuditEvent>) =>
    recordAudit(db, { ...outcome(ctx), ...event, ...sourceOf(ctx) });

  return {
    before: [
      {
        // Who is signing out (or changing their two-step verification) is read before the session changes.
        paths: (path) => path === "/sign-out" || path.startsWith("/two-factor/"),
        run: async (ctx) => {
          const person = await signedInPerson(ctx);
          if (!person && ctx.path in SECOND_STEP_METHODS) await pendingPerson(ctx);
        },
      },
    ],
    after: [
      {
        paths: onPath("/sign-in/email"),
        run: async (ctx) => {
          const email = emailOf(ctx) ?? null;
          const result = outcomeOf(ctx);
          if (!result.ok) {
            await record(ctx, { action: "auth.sign_in", actorEmail: email });
          } else if (result.body.twoFactorRedirect === true) {
            // Right password; the session waits for the code.
            const user = email ? await ctx.context.internalAdapter.findUserByEmail(email) : null;
            await record(ctx, {
              action: "auth.mfa.challenge",
              actorUserId: user?.user.id ?? null,
              actorEmail: email,
              details: { method: ctx.path },
            });
          }
        },
      },
      {
        paths: (path) => path.startsWith("/two-factor/"),
        run: async (ctx) => {
          const signedIn = await signedInPerson(ctx);
          const method = SECOND_STEP_METHODS[ctx.path];
          if (!signedIn) {
            if (!method) return;
            const pending = await pendingPerson(ctx);
            const who = { actorUserId: pending?.userId ?? null, actorEmail: pending?.email ?? null };
            const { details } = outcome(ctx);
            await record(ctx, { action: "auth.mfa.verify", ...who, details: { method, ...details } });
            if (pending && outcomeOf(ctx).ok) {
              await record(ctx, {
                action: "auth.sign_in",
                ...who,
                details: { method: ctx.path, signInMethod: "code" },
              });
            }
            return;
          }
          const action = twoFactorAction(ctx.path, signedIn);
          if (!action) return;
          const { details } = outcome(ctx);
          await record(ctx, {
            action,
            actorUserId: signedIn.userId,
            actorEmail: signedIn.email,
            ...(method ? { details: { method, ...details } } : details ? { details } : {}),
          });
        },
      },
      {
        // A failed passkey sign-in, against the account whose passkey it presented (if any); a successful one
        // is recorded when its session is created (account-hooks.ts), with the sign-in method.
        paths: onPath("/passkey/verify-authentication"),
        run: async (ctx) => {
          if (outcomeOf(ctx).ok) return;
          const owner = await passkeyOwner(db, ctx);
          await record(ctx, {
            action: "auth.sign_in",
            actorUserId: owner?.userId ?? null,
            actorEmail: owner?.email ?? null,
            details: { method: ctx.path, signInMethod: "passkey", ...outcome(ctx).details },
          });
        },
      },
      {
        paths: onPath("/sign-out"),
        run: async (ctx) => {
          const person = await signedInPerson(ctx);
          if (!person || !outcomeOf(ctx).ok) return;
          await record(ctx, {
            action: "auth.sign_out",
            actorUserId: person.userId,
            actorEmail: person.email,
          });
        },
      },
      {
        paths: onPath("/request-password-reset"),
        run: async (ctx) => {
          await record(ctx, {
            action: "auth.password_reset.requested",
            actorEmail: emailOf(ctx) ?? null,
            details: { status: outcomeOf(ctx).status },
          });
        },
      },
      {
        // A successful reset is recorded by auth.ts's onPasswordReset, which knows whose it was.
        paths: onPath("/reset-password"),
        run: async (ctx) => {
          if (!outcomeOf(ctx).ok) await record(ctx, { action: "auth.password_reset.completed" });
        },
      },
      {
        paths: onPath("/change-password"),
        run: async (ctx) => {
          const person = await signedInPerson(ctx);
          await record(ctx, {
            action: "auth.password_changed",
            actorUserId: person?.userId ?? null,
            actorEmail: person?.email ?? null,
          });
        },
      },
      {
        // A successful self sign-up is recorded when its user is created (auth.ts).
        paths: onPath("/sign-up/email"),
        run: async (ctx) => {
          if (!outcomeOf(ctx).ok)
            await record(ctx, { action: "auth.sign_up", actorEmail: emailOf(ctx) ?? null });
        },
      },
    ],
  };
}
