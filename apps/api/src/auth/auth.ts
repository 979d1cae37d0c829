import { passkey } from "@better-auth/passkey";
import { betterAuth } from "better-auth";
import { drizzleAdapter } from "better-auth/adapters/drizzle";
import { admin, genericOAuth, jwt, twoFactor } from "better-auth/plugins";
import { adminAc, defaultAc } from "better-auth/plugins/admin/access";
import { DEFAULT_BRANDING } from "@portal/contracts";
import { schema } from "../db/schema.ts";
import { sharedIpLimitStorage } from "./ip-limits.ts";
import { portalAuthPlugin } from "./hooks/index.ts";
import { lockConcern } from "./hooks/lock.ts";
import { policyConcern } from "./hooks/policy.ts";
import { twoStepConcern } from "./hooks/two-step.ts";
import { passkeyConcern, passkeyOptions } from "./hooks/passkeys.ts";
import { emailCodeConcern } from "./hooks/email-codes.ts";
import { signInCodeMail } from "../mail/templates.ts";
import { accountWritesConcern } from "./hooks/account-writes.ts";
import { newDeviceConcern } from "../signin/new-device.ts";
import { effectiveSignInPolicy } from "../signin/policy.ts";
import { TOTP_ISSUER, TOTP_PERIOD_SECONDS } from "./totp.ts";
import type { AuthDependencies } from "./auth-dependencies.ts";
import { accountHooks, emailFlows } from "./account-hooks.ts";
import { DEFAULT_SELF_SIGN_UP_ROLE } from "./sign-up-rules.ts";
import { betterAuthErrors, betterAuthLogger } from "./auth-logger.ts";

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
];

/** What an enrolled person must wait out after 10 wrong codes in a row (Better Auth's account lock-out). */
export const MFA_LOCKOUT_SECONDS = 15 * 60;

// Portal roles. Only "admin" may use the identity provider's admin endpoints; the others hold no
// admin permissions at all (what each may see in the portal is decided by the portal's own API).
const noAdminPermissions = defaultAc.newRole({ user: [], session: [] });
const roles = {
  admin: adminAc,
  client: noAdminPermissions,
  employee: noAdminPermissions,
  editor: noAdminPermissions,
  author: noAdminPermissions,
  delegate: noAdminPermissions,
};

/** Better Auth's models in the portal's schema (also used to run its session changes in a portal transaction). */
export const AUTH_TABLES = {
  user: schema.users,
  session: schema.sessions,
  account: schema.accounts,
  verification: schema.verifications,
  jwks: schema.jwks,
  rateLimit: schema.rateLimits,
  twoFactor: schema.twoFactors,
  passkey: schema.passkeys,
};

export function createAuth(dependencies: AuthDependencies) {
  const { config, db, limits, shared } = dependencies;
  const deps = { ...dependencies, mailFirm: dependencies.mailFirm ?? (async () => DEFAULT_BRANDING) };
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
    logger: betterAuthLogger(dependencies.log, config.logLevel),
    onAPIError: betterAuthErrors(dependencies.log),
    disabledPaths: DISABLED_AUTH_PATHS,
    database: drizzleAdapter(db, {
      provider: "pg",
      schema: AUTH_TABLES,
    }),
    ...emailFlows(deps),
    socialProviders,
    account: { accountLinking: { enabled: true } },
    session: {
      // Absolute lifetime (ASVS L2: re-authenticate after 12 h); no sliding refresh.
      expiresIn: config.sessionMaxAgeSeconds,
      disableSessionRefresh: true,
      // No cookie cache: a revoked session stops working on its very next request.
      cookieCache: { enabled: false },
      // How the person signed in (password, code, passkey...): set by the create hook, never by a request.
      additionalFields: { signInMethod: { type: "string", required: false, input: false } },
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
        // Passkey sign-in attempts count like passwords (issue 24). Not the options a sign-in page asks for on
        // every visit (passkey autofill): many people behind one office address would reach the limit.
        "/passkey/verify-authentication": { window: 60, max: config.authIpLimitPerMinute },
        "/passkey/verify-registration": { window: 60, max: config.authIpLimitPerMinute },
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
    databaseHooks: accountHooks(deps),
    plugins: [
      twoFactor({
        issuer: TOTP_ISSUER,
        totpOptions: { period: TOTP_PERIOD_SECONDS },
        // Five minutes for the second step after the password (the plugin's default is ten).
        twoFactorCookieMaxAge: 5 * 60,
        accountLockout: { enabled: true, maxFailedAttempts: 10, durationSeconds: MFA_LOCKOUT_SECONDS },
        backupCodeOptions: { amount: 10, length: 10, storeBackupCodes: "encrypted" },
        // Codes by email where the firm allows them (hooks/email-codes.ts): six digits, ten minutes, single use.
        otpOptions: {
          digits: 6,
          period: 10,
          allowedAttempts: 5,
          storeOTP: "hashed",
          sendOTP: async ({ user, otp }) => {
            await deps.mailer.send({
              to: user.email,
              ...signInCodeMail({ name: user.name, code: otp, firm: await deps.mailFirm() }),
            });
          },
        },
      }),
      passkey(passkeyOptions(config, db)),
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
          emailCodeConcern({ db, policy: () => effectiveSignInPolicy(db, config), codes: limits.codes }),
          lockConcern({ db, ...limits }),
          twoStepConcern({ db, policy: () => effectiveSignInPolicy(db, config) }),
          // After the gate (someone who must enrol first is told so), before the passkey rules (which act).
          accountWritesConcern({ db }),
          passkeyConcern({ db, policy: () => effectiveSignInPolicy(db, config) }),
          policyConcern(config),
          newDeviceConcern(deps),
        ],
      }),
    ],
  });
}

export type Auth = ReturnType<typeof createAuth>;
