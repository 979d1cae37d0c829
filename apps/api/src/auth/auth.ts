import { betterAuth } from "better-auth";
import { drizzleAdapter } from "better-auth/adapters/drizzle";
import { APIError } from "better-auth/api";
import { admin, genericOAuth, jwt, twoFactor } from "better-auth/plugins";
import { adminAc, defaultAc } from "better-auth/plugins/admin/access";
import {
  DEFAULT_BRANDING,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  SELF_SIGN_UP_ROLES,
  type TSelfSignUpRole,
} from "@portal/contracts";
import { eq } from "drizzle-orm";
import { auditSourceFromHeaders, recordAudit } from "../audit/audit.ts";
import type { AppConfig } from "../config.ts";
import type { Database } from "../db/client.ts";
import { schema, users } from "../db/schema.ts";
import type { Mailer } from "../mail/mailer.ts";
import { existingAccountMail, passwordResetMail, verifyEmailMail, type MailFirm } from "../mail/templates.ts";
import { queueSelfSignUpProvisioning } from "../accounts/self-sign-up.ts";
import { hashPassword } from "../accounts/password.ts";
import { verifyStoredPassword } from "../accounts/stored-password.ts";
import type { SharedStore } from "../lib/redis.ts";
import type { AccountLimits } from "./account-limits.ts";
import { sharedIpLimitStorage } from "./ip-limits.ts";
import { portalAuthPlugin } from "./hooks/index.ts";
import { lockConcern } from "./hooks/lock.ts";
import { policyConcern, signUpDomainError } from "./hooks/policy.ts";
import { twoStepConcern } from "./hooks/two-step.ts";
import { TOTP_ISSUER, TOTP_PERIOD_SECONDS } from "./totp.ts";

/** Role of a person who creates their own account (or arrives through social sign-in) until provisioned. */
export const DEFAULT_SELF_SIGN_UP_ROLE = "author";

/**
 * The admin plugin's own endpoints would change users outside the portal's transactions and audit
 * trail (and offer impersonation); the back office API is the only way to manage people. Emails never
 * change (spec §5).
 */
export const DISABLED_AUTH_PATHS = [
  "/admin/ban-user",
  "/admin/create-user",
  "/admin/get-user",
  "/admin/has-permission",
  "/admin/impersonate-user",
  "/admin/list-user-sessions",
  "/admin/list-users",
  "/admin/remove-user",
  "/admin/revoke-user-session",
  "/admin/revoke-user-sessions",
  "/admin/set-role",
  "/admin/set-user-password",
  "/admin/stop-impersonating",
  "/admin/unban-user",
  "/admin/update-user",
  "/change-email",
  "/delete-user",
  // Sessions are listed and ended through the portal's API (/api/me/sessions, the admin's end-all): Better
  // Auth's list answers every session's token to the page, and these changes would skip the audit trail
  // (DEVIATIONS D51).
  "/list-sessions",
  "/revoke-session",
  "/revoke-sessions",
  "/revoke-other-sessions",
  // Two-step verification is TOTP with backup codes only; no codes by email (decision 006).
  "/two-factor/send-otp",
  "/two-factor/verify-otp",
];

/** What an enrolled person must wait out after 10 wrong codes in a row (Better Auth's account lock-out). */
export const MFA_LOCKOUT_SECONDS = 15 * 60;

const SELF_SIGN_UP_PATHS = ["/sign-up/email", "/callback/", "/oauth2/callback/"];

function isSelfSignUpRole(role: unknown): role is TSelfSignUpRole {
  return (SELF_SIGN_UP_ROLES as readonly unknown[]).includes(role);
}

export function isSelfSignUpPath(path: string | undefined): boolean {
  return !!path && SELF_SIGN_UP_PATHS.some((p) => path.startsWith(p));
}

// Portal roles. Only "admin" may use the identity provider's admin endpoints; the others hold no
// admin permissions at all (what each may see in the portal is decided by the portal's own API).
const noAdminPermissions = defaultAc.newRole({ user: [], session: [] });
const roles = {
  admin: adminAc,
  client: noAdminPermissions,
  employee: noAdminPermissions,
  editor: noAdminPermissions,
  author: noAdminPermissions,
};

export interface AuthDependencies {
  config: AppConfig;
  db: Database;
  mailer: Mailer;
  /** The per-account limits on password guesses and second-step codes (decision 008). */
  limits: { passwords: AccountLimits; codes: AccountLimits };
  /** REDIS_URL: the per-IP limits are counted there, shared by every instance (decision 009). */
  shared?: SharedStore | undefined;
  /** The firm's name and colour for the mail (decision 014); omitted → the demo firm. */
  mailFirm?: () => Promise<MailFirm>;
}

/** Better Auth's models in the portal's schema (also used to run its session changes in a portal transaction). */
export const AUTH_TABLES = {
  user: schema.users,
  session: schema.sessions,
  account: schema.accounts,
  verification: schema.verifications,
  jwks: schema.jwks,
  rateLimit: schema.rateLimits,
  twoFactor: schema.twoFactors,
};

export function createAuth({
  config,
  db,
  mailer,
  limits,
  shared,
  mailFirm = async () => DEFAULT_BRANDING,
}: AuthDependencies) {
  const socialProviders: Parameters<typeof betterAuth>[0]["socialProviders"] = {};
  if (config.social.google) socialProviders.google = config.social.google;
  if (config.social.microsoft) socialProviders.microsoft = config.social.microsoft;
  if (config.social.github) socialProviders.github = config.social.github;
  if (config.social.apple) socialProviders.apple = config.social.apple;

  return betterAuth({
    appName: "Meridian Client Portal",
    baseURL: config.publicUrl,
    basePath: "/api/auth",
    secret: config.authSecret,
    trustedOrigins: [config.publicUrl],
    disabledPaths: DISABLED_AUTH_PATHS,
    database: drizzleAdapter(db, {
      provider: "pg",
      schema: AUTH_TABLES,
    }),
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
    socialProviders,
    account: { accountLinking: { enabled: true } },
    session: {
      // Absolute lifetime (ASVS L2: re-authenticate after 12 h); no sliding refresh.
      expiresIn: config.sessionMaxAgeSeconds,
      disableSessionRefresh: true,
      // No cookie cache: a revoked session stops working on its very next request.
      cookieCache: { enabled: false },
    },
    rateLimit: {
      enabled: true,
      storage: "database",
      ...(shared && { customStorage: sharedIpLimitStorage(db, shared) }),
      window: 60,
      max: 600,
      customRules: {
        "/sign-in/email": { window: 60, max: config.authIpLimitPerMinute },
        "/sign-up/email": { window: 60, max: config.authIpLimitPerMinute },
        "/request-password-reset": { window: 60, max: config.authIpLimitPerMinute },
        "/reset-password": { window: 60, max: config.authIpLimitPerMinute },
        // The plugin's own default is 3 per 10 s per address and path; per account, 5 wrong codes end a
        // sign-in attempt and 10 in a row lock the second step for MFA_LOCKOUT_SECONDS.
        "/two-factor/*": { window: 60, max: config.authIpLimitPerMinute },
      },
    },
    advanced: {
      // Mail goes out after the answer, so an answer takes as long whether or not an account exists.
      backgroundTasks: { handler: (task) => void task },
      // Explicit: Better Auth would otherwise switch these checks off when NODE_ENV is "test".
      disableOriginCheck: false,
      disableCSRFCheck: false,
      // The Fastify layer overwrites this header with the address it trusts (see routes/auth.ts).
      ipAddress: { ipAddressHeaders: ["x-forwarded-for"] },
      cookiePrefix: "portal",
      database: { generateId: () => crypto.randomUUID() },
    },
    databaseHooks: {
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
      },
      session: {
        create: {
          after: async (session, ctx) => {
            // Sessions made by the two-factor endpoints (the second step, or a new session after
            // enrolment) are audited in routes/auth.ts, where their outcome is known.
            if (ctx?.path?.startsWith("/two-factor/")) return;
            const [user] = await db
              .select({ email: users.email, twoFactorEnabled: users.twoFactorEnabled })
              .from(users)
              .where(eq(users.id, session.userId));
            // A password sign-in of someone with two-step verification: this session is dropped at once
            // and the second step follows (routes/auth.ts audits both).
            if (ctx?.path === "/sign-in/email" && user?.twoFactorEnabled) return;
            await recordAudit(db, {
              action: "auth.sign_in",
              outcome: "success",
              actorUserId: session.userId,
              actorEmail: user?.email ?? null,
              details: { method: ctx?.path ?? "internal" },
              ip: session.ipAddress ?? null,
              userAgent: session.userAgent ?? null,
              requestId: ctx?.headers?.get("x-request-id") ?? null,
            });
          },
        },
      },
    },
    plugins: [
      twoFactor({
        issuer: TOTP_ISSUER,
        totpOptions: { period: TOTP_PERIOD_SECONDS },
        // Five minutes for the second step after the password (the plugin's default is ten).
        twoFactorCookieMaxAge: 5 * 60,
        accountLockout: { enabled: true, maxFailedAttempts: 10, durationSeconds: MFA_LOCKOUT_SECONDS },
        backupCodeOptions: { amount: 10, length: 10, storeBackupCodes: "encrypted" },
      }),
      admin({ defaultRole: DEFAULT_SELF_SIGN_UP_ROLE, adminRoles: ["admin"], roles }),
      jwt({
        // API callers ask GET /api/auth/token; signing a JWT on every session check would cost each request.
        disableSettingJwtHeader: true,
        jwt: {
          issuer: config.publicUrl,
          audience: config.publicUrl,
          expirationTime: "15m",
          // The spec's "admin claim of the token"; `sid` lets the API reject a JWT whose session ended.
          definePayload: ({ user, session }) => ({
            email: user.email,
            name: user.name,
            role: user.role ?? null,
            admin: user.role === "admin",
            sid: session.id,
          }),
        },
      }),
      ...(config.oidc
        ? [
            genericOAuth({
              config: [
                {
                  providerId: "oidc",
                  discoveryUrl: `${config.oidc.issuer}/.well-known/openid-configuration`,
                  clientId: config.oidc.clientId,
                  clientSecret: config.oidc.clientSecret,
                  scopes: ["openid", "email", "profile"],
                  pkce: true,
                },
              ],
            }),
          ]
        : []),
      // Last, so that its after hooks see what the two-factor plugin made of a sign-in.
      portalAuthPlugin({
        db,
        concerns: [
          lockConcern({ db, ...limits }),
          twoStepConcern({ db, mfaRequiredRoles: config.mfaRequiredRoles }),
          policyConcern(config),
        ],
      }),
    ],
  });
}

export type Auth = ReturnType<typeof createAuth>;
