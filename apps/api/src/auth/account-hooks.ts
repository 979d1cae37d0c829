import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "@portal/contracts";
import type { BetterAuthOptions } from "better-auth";
import { APIError } from "better-auth/api";
import { eq } from "drizzle-orm";
import { queueSelfSignUpProvisioning } from "../accounts/self-sign-up.ts";
import { hashPassword } from "../accounts/password.ts";
import { verifyStoredPassword } from "../accounts/stored-password.ts";
import { auditSourceFromHeaders, recordAudit } from "../audit/audit.ts";
import { users } from "../db/schema.ts";
import { existingAccountMail, passwordResetMail, verifyEmailMail } from "../mail/templates.ts";
import type { AuthDependencies } from "./auth-dependencies.ts";
import { profileNameWrite } from "./hooks/account-writes.ts";
import { signUpDomainError } from "./hooks/policy.ts";
import { signInMethodOf } from "./sign-in-method.ts";
import { DEFAULT_SELF_SIGN_UP_ROLE, isSelfSignUpPath, isSelfSignUpRole } from "./sign-up-rules.ts";

type Deps = AuthDependencies & Required<Pick<AuthDependencies, "mailFirm">>;

/** Email and password: sign-up, the password hash, reset; and the address confirmation of a self sign-up. */
export function emailFlows({ config, db, mailer, limits, mailFirm }: Deps) {
  return {
    emailAndPassword: {
      enabled: true,
      minPasswordLength: PASSWORD_MIN_LENGTH,
      maxPasswordLength: PASSWORD_MAX_LENGTH,
      autoSignIn: true,
      // Sign-up answers alike for a taken and a free address (no enumeration): a new account confirms its
      // email before its first sign-in, and the owner of a taken address is told by email instead.
      requireEmailVerification: true,
      onExistingUserSignUp: async ({ user }) => {
        const signInUrl = `${config.publicUrl}/login`;
        await mailer.send({
          to: user.email,
          ...existingAccountMail({ name: user.name, signInUrl, firm: await mailFirm() }),
        });
      },
      // Argon2id; a hash kept from the Firebase import is checked once and replaced (decision 012).
      password: { hash: hashPassword, verify: verifyStoredPassword(db) },
      resetPasswordTokenExpiresIn: 60 * 60,
      revokeSessionsOnPasswordReset: true,
      sendResetPassword: async ({ user, url }) => {
        await mailer.send({
          to: user.email,
          ...passwordResetMail({ name: user.name, url, firm: await mailFirm() }),
        });
      },
      onPasswordReset: async ({ user }, request) => {
        // A reset proves the person: their password lock ends (the second step keeps its own).
        await limits.passwords.clear(user.email.toLowerCase());
        await recordAudit(db, {
          action: "auth.password_reset.completed",
          outcome: "success",
          actorUserId: user.id,
          actorEmail: user.email,
          ...auditSourceFromHeaders(request?.headers),
        });
      },
    },
    emailVerification: {
      sendOnSignUp: true,
      autoSignInAfterVerification: true,
      expiresIn: 24 * 60 * 60,
      sendVerificationEmail: async ({ user, url }) => {
        await mailer.send({
          to: user.email,
          ...verifyEmailMail({ name: user.name, url, firm: await mailFirm() }),
        });
      },
      // A self-registered person is provisioned in the BI service once their address is confirmed.
      afterEmailVerification: async (user, request) => {
        const role = (user as { role?: string | null }).role;
        if (!isSelfSignUpRole(role)) return;
        await queueSelfSignUpProvisioning(
          db,
          { userId: user.id, email: user.email },
          { name: user.name, role },
          auditSourceFromHeaders(request?.headers),
        );
      },
    },
  } satisfies Pick<BetterAuthOptions, "emailAndPassword" | "emailVerification">;
}

/** Who may be created and how (the sign-up domains, the self sign-up role), and the audit of sign-ups and sign-ins. */
export function accountHooks({ config, db }: Deps): BetterAuthOptions["databaseHooks"] {
  return {
    user: {
      create: {
        before: async (user, ctx) => {
          // Social and OIDC sign-in can create accounts too: the same domain rule applies.
          if (ctx && isSelfSignUpPath(ctx.path) && ctx.path !== "/sign-up/email") {
            const error = signUpDomainError(config, user.email);
            if (error) throw new APIError("FORBIDDEN", { message: error, code: "SIGN_UP_NOT_ALLOWED" });
          }
          // Self sign-up never grants admin or access to client data: editor or author, as chosen.
          if (ctx && isSelfSignUpPath(ctx.path)) {
            const chosen = (ctx.body as { signUpRole?: unknown } | undefined)?.signUpRole;
            return {
              data: { ...user, role: isSelfSignUpRole(chosen) ? chosen : DEFAULT_SELF_SIGN_UP_ROLE },
            };
          }
          return undefined;
        },
        after: async (user, ctx) => {
          if (!ctx || !isSelfSignUpPath(ctx.path)) return;
          await recordAudit(db, {
            action: "auth.sign_up",
            outcome: "success",
            actorUserId: user.id,
            actorEmail: user.email,
            details: { method: ctx.path.startsWith("/sign-up") ? "email" : "social" },
            ...auditSourceFromHeaders(ctx.request?.headers ?? ctx.headers),
          });
        },
      },
      // The profile's name (/update-user): written with its audit row and BI update in one transaction.
      update: { before: profileNameWrite(db) },
    },
    session: {
      create: {
        // How the person signed in, from the endpoint that makes the session (auth/sign-in-method.ts).
        before: async (session, ctx) => ({ data: { ...session, signInMethod: signInMethodOf(ctx?.path) } }),
        after: async (session, ctx) => {
          // Sessions made by the two-factor endpoints (the second step, or a new session after
          // enrolment) are audited in hooks/audit.ts, where their outcome is known.
          if (ctx?.path?.startsWith("/two-factor/")) return;
          const [user] = await db
            .select({ email: users.email, twoFactorEnabled: users.twoFactorEnabled })
            .from(users)
            .where(eq(users.id, session.userId));
          // A password sign-in of someone with two-step verification: this session is dropped at once
          // and the second step follows (hooks/audit.ts audits both).
          if (ctx?.path === "/sign-in/email" && user?.twoFactorEnabled) return;
          await recordAudit(db, {
            action: "auth.sign_in",
            outcome: "success",
            actorUserId: session.userId,
            actorEmail: user?.email ?? null,
            details: { method: ctx?.path ?? "internal", signInMethod: signInMethodOf(ctx?.path) },
            ip: session.ipAddress ?? null,
            userAgent: session.userAgent ?? null,
            requestId: ctx?.headers?.get("x-request-id") ?? null,
          });
        },
      },
    },
  };
}
