import path from "node:path";
import type { TRole } from "@portal/contracts";
import { DEMO_FIRM } from "@portal/contracts/demo";
import type { TEmbedUiParams } from "@portal/sigma";
import { z } from "zod";
import {
  loadOrCreateAuthSecret,
  pair,
  parseEmbedUi,
  parsePrivilegeMap,
  parseRoleList,
  type PrivilegeMap,
  type SocialProviderConfig,
} from "./config-values.ts";

export type { SocialProviderConfig } from "./config-values.ts";

const flag = z
  .enum(["1", "0", "true", "false", "on", "off", "yes", "no"], {
    error: "must be one of on/off, true/false, 1/0, yes/no",
  })
  .transform((v) => ["1", "true", "on", "yes"].includes(v));

const optionalUrl = z.url({ error: "must be a URL" }).optional();

const domainList = z
  .string()
  .transform((v) =>
    v
      .split(",")
      .map((d) => d.trim().toLowerCase())
      .filter(Boolean),
  )
  .pipe(z.array(z.string().regex(/^[a-z0-9.-]+\.[a-z]{2,}$/, "must be a comma-separated list of domains")));

const EnvSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default("127.0.0.1"),
  PUBLIC_URL: optionalUrl,
  DATA_DIR: z.string().min(1).default("./data"),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "must be a postgres:// URL")
    .optional(),
  /** Shared state of several instances (limits, access-cache invalidation); unset → one process. */
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, "must be a redis:// or rediss:// URL")
    .optional(),
  REDIS_KEY_PREFIX: z.string().min(1).default("portal:"),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, "must be an smtp:// or smtps:// URL")
    .optional(),
  MAIL_FROM: z.string().default("Meridian Portal <no-reply@meridian-advisory.example>"),
  BETTER_AUTH_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
  /** Keys the audit hash chain (decision 007); unset → derived from BETTER_AUTH_SECRET. */
  AUDIT_KEY: z.string().min(32, "must be at least 32 characters").optional(),
  ADMIN_EMAIL: z.email({ error: "must be an email address" }).optional(),
  ADMIN_PASSWORD: z.string().optional(),
  DEMO_DATA: flag.optional(),
  /** The OpenAPI page at /api/docs: on by default outside production; in production only with API_DOCS=1, for admins. */
  API_DOCS: flag.optional(),
  SIGNUP_ALLOWED_DOMAINS: domainList.optional(),
  TRUST_PROXY: flag.default(false),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  /** Failed sign-ins (and second steps) allowed per account within SIGNIN_LOCK_WINDOW_SECONDS before 429. */
  SIGNIN_MAX_FAILURES: z.coerce.number().int().min(1).default(10),
  SIGNIN_LOCK_WINDOW_SECONDS: z.coerce
    .number()
    .int()
    .min(1)
    .default(15 * 60),
  /** ASVS 5.0 6.3.x: at most 100 failed attempts per account per hour. */
  SIGNIN_MAX_FAILURES_PER_HOUR: z.coerce.number().int().min(1).default(100),
  /** Requests per IP per minute to the sign-in, sign-up and reset endpoints. */
  AUTH_IP_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(30),
  SESSION_MAX_AGE_HOURS: z.coerce.number().positive().default(12),
  /** How long an invitation link works (Add Client / Add Employee "Send an invitation"); 1 hour to 30 days. */
  INVITE_LIFETIME_HOURS: z.coerce
    .number({ error: "must be a number of hours" })
    .int("must be a whole number of hours")
    .min(1, "must be at least 1 hour")
    .max(720, "must be at most 720 hours (30 days)")
    .default(72),
  /** Workbook embed URLs one person may request per minute. */
  EMBED_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(60),
  ACCESS_CACHE_SECONDS: z.coerce.number().int().min(0).max(60).default(5),
  /** How long a worker's claim on a BI change lasts; a killed instance's claims pass to others after it. */
  OUTBOX_LEASE_SECONDS: z.coerce.number().int().min(2).max(3600).default(60),
  /** BI changes one instance delivers at once. */
  OUTBOX_CONCURRENCY: z.coerce.number().int().min(1).max(16).default(2),
  /** How often each instance looks for delegations ending within a week, to remind their clients; 0 = never. */
  DELEGATION_REMINDER_INTERVAL_SECONDS: z.coerce.number().int().min(0).max(86_400).default(900),
  /** On SIGTERM, how long /readyz answers 503 before the listener closes (the load balancer notices). */
  SHUTDOWN_DRAIN_SECONDS: z.coerce.number().min(0).max(8).default(1),
  /** Roles that must use two-step verification (TOTP), comma-separated; "" = none. Decision 006. */
  MFA_REQUIRED_ROLES: z.string().default("admin"),
  GOOGLE_CLIENT_ID: z.string().optional(),
  GOOGLE_CLIENT_SECRET: z.string().optional(),
  MICROSOFT_CLIENT_ID: z.string().optional(),
  MICROSOFT_CLIENT_SECRET: z.string().optional(),
  MICROSOFT_TENANT_ID: z.string().default("common"),
  GITHUB_CLIENT_ID: z.string().optional(),
  GITHUB_CLIENT_SECRET: z.string().optional(),
  APPLE_CLIENT_ID: z.string().optional(),
  APPLE_CLIENT_SECRET: z.string().optional(),
  OIDC_ISSUER: optionalUrl,
  OIDC_CLIENT_ID: z.string().optional(),
  OIDC_CLIENT_SECRET: z.string().optional(),
  OIDC_NAME: z.string().default("Single sign-on"),
  // Sigma embedding. Unset → the built-in analytics server on ANALYTICS_PORT with generated credentials.
  ANALYTICS_PORT: z.coerce.number().int().min(1).max(65535).default(3100),
  ANALYTICS_PUBLIC_URL: optionalUrl,
  SIGMA_EMBED_BASE_URL: optionalUrl,
  SIGMA_EMBED_CLIENT_ID: z.string().optional(),
  SIGMA_EMBED_SECRET: z.string().optional(),
  SIGMA_API_BASE_URL: optionalUrl,
  SIGMA_API_CLIENT_ID: z.string().optional(),
  SIGMA_API_CLIENT_SECRET: z.string().optional(),
  /**
   * The embed session's length (`exp - iat`): Sigma shows "Session expired" when it runs out, and the portal
   * renews the frame about a minute before. At most Sigma's 30 days; never past the portal session's end.
   */
  SIGMA_EMBED_SESSION_SECONDS: z.coerce
    .number()
    .int()
    .min(60, "must be at least 60 (the portal renews the frame a minute before it ends)")
    .max(2_592_000, "must be at most 2592000 (Sigma's 30 days)")
    .default(3600),
  /** Replaced by SIGMA_EMBED_SESSION_SECONDS; refused with a message naming it. */
  SIGMA_EMBED_URL_LIFETIME_SECONDS: z.string().optional(),
  /** Privilege → Sigma account type, e.g. "Build=Creator,Analyze=Explorer,Act=Explorer,View=Viewer". */
  SIGMA_ACCOUNT_TYPES: z.string().optional(),
  /** Privilege → Sigma REST `memberType` (default: the SIGMA_ACCOUNT_TYPES names), e.g. "Build=creator,View=viewer". */
  SIGMA_MEMBER_TYPES: z.string().optional(),
  /** Embed UI options sent on every URL, e.g. "theme=Dark,menu_position=none,hide_folder_navigation=true". */
  SIGMA_EMBED_UI: z.string().optional(),
  /** Bearer token of GET /metrics (Prometheus); unset with METRICS_PORT unset → no /metrics at all. */
  METRICS_TOKEN: z
    .string()
    .min(24, "must be at least 24 characters (a random secret the scraper sends)")
    .optional(),
  /** /metrics on this port of HOST instead of the main one. */
  METRICS_PORT: z.coerce.number().int().min(1).max(65535).optional(),
});

type Env = z.infer<typeof EnvSchema>;

export interface AppConfig {
  env: Env["NODE_ENV"];
  isProduction: boolean;
  port: number;
  host: string;
  publicUrl: string;
  dataDir: string;
  databaseUrl: string | undefined;
  redis: { url: string; prefix: string } | undefined;
  smtpUrl: string | undefined;
  mailFrom: string;
  authSecret: string;
  /** What the audit chain key is derived from: AUDIT_KEY, else the auth secret (decision 007). */
  auditKeySecret: string;
  admin: { email: string; password: string } | undefined;
  demoData: boolean;
  /** Serve /api/docs; in production it is also admin-only. */
  apiDocs: boolean;
  signUpDomains: string[];
  trustProxy: boolean;
  logLevel: Env["LOG_LEVEL"];
  signInMaxFailures: number;
  signInLockWindowSeconds: number;
  signInMaxFailuresPerHour: number;
  authIpLimitPerMinute: number;
  sessionMaxAgeSeconds: number;
  /** INVITE_LIFETIME_HOURS in milliseconds: how long an invitation link works. */
  inviteLifetimeMs: number;
  embedRateLimitPerMinute: number;
  /** How long a verified session and a viewing decision may be reused (0: never). Decision 005. */
  accessCacheSeconds: number;
  outbox: { leaseMs: number; concurrency: number };
  /** DELEGATION_REMINDER_INTERVAL_SECONDS in milliseconds (0: the reminder worker does not run on its own). */
  delegationReminderIntervalMs: number;
  shutdownDrainMs: number;
  /** Roles whose members must enrol in two-step verification before they may do anything else. */
  mfaRequiredRoles: TRole[];
  social: {
    google?: SocialProviderConfig;
    microsoft?: SocialProviderConfig & { tenantId: string };
    github?: SocialProviderConfig;
    apple?: SocialProviderConfig;
  };
  oidc: (SocialProviderConfig & { issuer: string; name: string }) | undefined;
  sigma: SigmaConfig;
  /** Prometheus's /metrics: on the main port with a token, or on a port of its own (metrics/). */
  metrics: { token: string | undefined; port: number | undefined };
}

export interface SigmaConfig {
  /** True when no Sigma org is configured and the built-in analytics server stands in for it. */
  builtIn: boolean;
  embedBaseUrl: string;
  /** Unset with the built-in server: read from DATA_DIR/sigma-local.json on first use. */
  embed: { clientId: string; secret: string } | undefined;
  apiBaseUrl: string;
  api: { clientId: string; clientSecret: string } | undefined;
  analyticsPort: number;
  /** `exp - iat` of every embed token: how long Sigma keeps an embed open (SIGMA_EMBED_SESSION_SECONDS). */
  embedSessionSeconds: number;
  accountTypes: PrivilegeMap;
  memberTypes: PrivilegeMap;
  /** Sigma's `:`-prefixed embed UI parameters (theme, menu_position, hide_…, lng, responsive_height). */
  ui: TEmbedUiParams;
}

export class ConfigError extends Error {
  constructor(public readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
    this.name = "ConfigError";
  }
}

/**
 * Reads and validates the environment once at boot. Every problem is collected so that
 * start-up stops with one readable list instead of failing on the first.
 */
export function loadConfig(source: NodeJS.ProcessEnv = process.env): AppConfig {
  // Empty strings in .env files mean "unset" — except MFA_REQUIRED_ROLES, where "" means "no role".
  const cleaned = Object.fromEntries(
    Object.entries(source).filter(([k, v]) => v !== undefined && (v !== "" || k === "MFA_REQUIRED_ROLES")),
  );
  const parsed = EnvSchema.safeParse(cleaned);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`));
  }
  const env = parsed.data;
  const problems: string[] = [];
  const isProduction = env.NODE_ENV === "production";
  const dataDir = path.resolve(env.DATA_DIR);

  if (env.ADMIN_EMAIL && !env.ADMIN_PASSWORD)
    problems.push("ADMIN_PASSWORD is required when ADMIN_EMAIL is set");
  if (env.ADMIN_PASSWORD && !env.ADMIN_EMAIL)
    problems.push("ADMIN_EMAIL is required when ADMIN_PASSWORD is set");

  let authSecret = env.BETTER_AUTH_SECRET;
  if (!authSecret) {
    if (isProduction)
      problems.push("BETTER_AUTH_SECRET is required in production (at least 32 random characters)");
    else authSecret = loadOrCreateAuthSecret(dataDir);
  }
  if (isProduction && !env.PUBLIC_URL) problems.push("PUBLIC_URL is required in production");
  // Passkeys (WebAuthn) are bound to PUBLIC_URL's origin, and browsers offer them only on https (or on this
  // machine's own loopback address, a secure context too: a production build tried locally).
  if (isProduction && env.PUBLIC_URL && !isSecureOrigin(env.PUBLIC_URL))
    problems.push(
      "PUBLIC_URL must be an https:// address in production (passkeys and secure cookies need it; only localhost may use http)",
    );
  if (env.SIGMA_EMBED_URL_LIFETIME_SECONDS !== undefined)
    problems.push(
      "SIGMA_EMBED_URL_LIFETIME_SECONDS is no longer read: Sigma's exp is the embed session's length, set it with SIGMA_EMBED_SESSION_SECONDS (default 3600); every URL still works once",
    );
  // Production is never the demo: its sign-ins and keys are published in the README.
  if (isProduction && env.DEMO_DATA === true)
    problems.push("DEMO_DATA cannot be on in production: the demo firm's sign-ins are published");

  const social: AppConfig["social"] = {};
  const google = pair(problems, "GOOGLE", env.GOOGLE_CLIENT_ID, env.GOOGLE_CLIENT_SECRET);
  if (google) social.google = google;
  const microsoft = pair(problems, "MICROSOFT", env.MICROSOFT_CLIENT_ID, env.MICROSOFT_CLIENT_SECRET);
  if (microsoft) social.microsoft = { ...microsoft, tenantId: env.MICROSOFT_TENANT_ID };
  const github = pair(problems, "GITHUB", env.GITHUB_CLIENT_ID, env.GITHUB_CLIENT_SECRET);
  if (github) social.github = github;
  const apple = pair(problems, "APPLE", env.APPLE_CLIENT_ID, env.APPLE_CLIENT_SECRET);
  if (apple) social.apple = apple;
  const oidcPair = pair(problems, "OIDC", env.OIDC_CLIENT_ID, env.OIDC_CLIENT_SECRET);
  if (oidcPair && !env.OIDC_ISSUER) problems.push("OIDC_ISSUER is required when OIDC_CLIENT_ID is set");
  if (env.OIDC_ISSUER && !oidcPair)
    problems.push("OIDC_CLIENT_ID and OIDC_CLIENT_SECRET are required with OIDC_ISSUER");

  const embedPair =
    env.SIGMA_EMBED_CLIENT_ID || env.SIGMA_EMBED_SECRET
      ? pair(problems, "SIGMA_EMBED", env.SIGMA_EMBED_CLIENT_ID, env.SIGMA_EMBED_SECRET, "SIGMA_EMBED_SECRET")
      : undefined;
  const apiPair = pair(problems, "SIGMA_API", env.SIGMA_API_CLIENT_ID, env.SIGMA_API_CLIENT_SECRET);
  const builtIn = !env.SIGMA_EMBED_BASE_URL;
  if (!builtIn && !embedPair)
    problems.push("SIGMA_EMBED_CLIENT_ID and SIGMA_EMBED_SECRET are required with SIGMA_EMBED_BASE_URL");
  if (!builtIn && !env.SIGMA_API_BASE_URL)
    problems.push("SIGMA_API_BASE_URL is required with SIGMA_EMBED_BASE_URL");
  if (!builtIn && !apiPair)
    problems.push("SIGMA_API_CLIENT_ID and SIGMA_API_CLIENT_SECRET are required with SIGMA_EMBED_BASE_URL");
  const accountTypes = parsePrivilegeMap(problems, "SIGMA_ACCOUNT_TYPES", env.SIGMA_ACCOUNT_TYPES, {
    Build: "Build",
    Analyze: "Analyze",
    Act: "Act",
    View: "View",
  });
  const embedUi = parseEmbedUi(problems, env.SIGMA_EMBED_UI);
  // Sigma's createMember: "Review the account types … to understand the format of the memberType string":
  // by default the same account type names the tokens carry.
  const memberTypes = parsePrivilegeMap(problems, "SIGMA_MEMBER_TYPES", env.SIGMA_MEMBER_TYPES, accountTypes);

  const mfaRequiredRoles = parseRoleList(problems, "MFA_REQUIRED_ROLES", env.MFA_REQUIRED_ROLES);
  if (env.METRICS_PORT !== undefined && env.METRICS_PORT === env.PORT)
    problems.push("METRICS_PORT must differ from PORT (leave it unset to serve /metrics on PORT)");

  if (problems.length > 0) throw new ConfigError(problems);
  const analyticsUrl = (env.ANALYTICS_PUBLIC_URL ?? `http://127.0.0.1:${env.ANALYTICS_PORT}`).replace(
    /\/$/,
    "",
  );

  // Demo data is on by default only with the embedded database, and never in production.
  const demoData = !isProduction && (env.DEMO_DATA ?? !env.DATABASE_URL);
  const publicUrl = (env.PUBLIC_URL ?? `http://${env.HOST}:${env.PORT}`).replace(/\/$/, "");
  return {
    env: env.NODE_ENV,
    isProduction,
    port: env.PORT,
    host: env.HOST,
    publicUrl,
    dataDir,
    databaseUrl: env.DATABASE_URL,
    redis: env.REDIS_URL ? { url: env.REDIS_URL, prefix: env.REDIS_KEY_PREFIX } : undefined,
    smtpUrl: env.SMTP_URL,
    mailFrom: env.MAIL_FROM,
    authSecret: authSecret!,
    auditKeySecret: env.AUDIT_KEY ?? authSecret!,
    admin:
      env.ADMIN_EMAIL && env.ADMIN_PASSWORD
        ? { email: env.ADMIN_EMAIL, password: env.ADMIN_PASSWORD }
        : undefined,
    demoData,
    apiDocs: env.API_DOCS ?? !isProduction,
    // Unset: self sign-up is off, except that the demo opens it for the demo firm's own domain.
    signUpDomains: env.SIGNUP_ALLOWED_DOMAINS ?? (demoData ? [DEMO_FIRM.domain] : []),
    trustProxy: env.TRUST_PROXY,
    logLevel: env.LOG_LEVEL,
    signInMaxFailures: env.SIGNIN_MAX_FAILURES,
    signInLockWindowSeconds: env.SIGNIN_LOCK_WINDOW_SECONDS,
    signInMaxFailuresPerHour: env.SIGNIN_MAX_FAILURES_PER_HOUR,
    authIpLimitPerMinute: env.AUTH_IP_LIMIT_PER_MINUTE,
    sessionMaxAgeSeconds: Math.round(env.SESSION_MAX_AGE_HOURS * 3600),
    inviteLifetimeMs: env.INVITE_LIFETIME_HOURS * 3600 * 1000,
    embedRateLimitPerMinute: env.EMBED_RATE_LIMIT_PER_MINUTE,
    accessCacheSeconds: env.ACCESS_CACHE_SECONDS,
    outbox: { leaseMs: env.OUTBOX_LEASE_SECONDS * 1000, concurrency: env.OUTBOX_CONCURRENCY },
    delegationReminderIntervalMs: env.DELEGATION_REMINDER_INTERVAL_SECONDS * 1000,
    shutdownDrainMs: env.SHUTDOWN_DRAIN_SECONDS * 1000,
    mfaRequiredRoles,
    social,
    oidc:
      oidcPair && env.OIDC_ISSUER
        ? { ...oidcPair, issuer: env.OIDC_ISSUER.replace(/\/$/, ""), name: env.OIDC_NAME }
        : undefined,
    sigma: {
      builtIn,
      embedBaseUrl: (env.SIGMA_EMBED_BASE_URL ?? `${analyticsUrl}/local`).replace(/\/$/, ""),
      embed: embedPair ? { clientId: embedPair.clientId, secret: embedPair.clientSecret } : undefined,
      apiBaseUrl: (env.SIGMA_API_BASE_URL ?? analyticsUrl).replace(/\/$/, ""),
      api: apiPair,
      analyticsPort: env.ANALYTICS_PORT,
      embedSessionSeconds: env.SIGMA_EMBED_SESSION_SECONDS,
      accountTypes,
      memberTypes,
      ui: embedUi,
    },
    metrics: { token: env.METRICS_TOKEN, port: env.METRICS_PORT },
  };
}

/** https, or http on the loopback address (browsers count both as secure contexts, where passkeys work). */
function isSecureOrigin(url: string): boolean {
  try {
    const { protocol, hostname } = new URL(url);
    return (
      protocol === "https:" ||
      (protocol === "http:" && ["localhost", "127.0.0.1", "[::1]"].includes(hostname))
    );
  } catch {
    return false;
  }
}
