import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { LightMyRequestResponse } from "fastify";
import { buildApp } from "../../src/app.ts";
import { ensureUser } from "../../src/accounts/accounts.ts";
import { loadConfig } from "../../src/config.ts";
import type { DatabaseHandle } from "../../src/db/client.ts";
import { requiresTwoFactor, type TRole } from "@portal/contracts";
import { base32 } from "@better-auth/utils/base32";
import { createOTP } from "@better-auth/utils/otp";

export const ORIGIN = "http://127.0.0.1:3999";

export async function createTestApp(
  database: DatabaseHandle,
  env: Record<string, string> = {},
  options: { logStream?: { write(line: string): void } } = {},
) {
  const config = loadConfig({
    NODE_ENV: "test",
    DATA_DIR: mkdtempSync(path.join(os.tmpdir(), "portal-test-")),
    PUBLIC_URL: ORIGIN,
    BETTER_AUTH_SECRET: "test-secret-test-secret-test-secret-0123456789",
    DEMO_DATA: "off",
    LOG_LEVEL: "silent",
    SIGNUP_ALLOWED_DOMAINS: "meridian-advisory.example",
    ...env,
  });
  const built = await buildApp({
    config,
    database,
    logger: options.logStream ? { stream: options.logStream } : false,
  });
  await built.app.ready();
  let counter = 0;
  /** Raw TOTP secrets of the users enrolled through `enrolTwoFactor`, by email. */
  const totpSecrets = new Map<string, string>();

  /** Creates a user with a unique email through the same path the server uses. */
  async function createUser(
    role: TRole,
    overrides: { email?: string; password?: string; name?: string } = {},
  ) {
    counter += 1;
    const email =
      overrides.email ?? `${role}-${counter}-${Math.random().toString(36).slice(2, 8)}@example.com`;
    const password = overrides.password ?? `correct-horse-${counter}-battery`;
    const { userId } = await ensureUser(database.db, {
      email,
      password,
      name: overrides.name ?? `Test ${role} ${counter}`,
      role,
      resetExisting: false,
    });
    return { email, password, userId };
  }

  async function signIn(email: string, password: string, ip = "10.0.0.1") {
    return built.app.inject({
      method: "POST",
      url: "/api/auth/sign-in/email",
      headers: { origin: ORIGIN, "content-type": "application/json" },
      remoteAddress: ip,
      payload: { email, password },
    });
  }

  function post(url: string, cookie: string, payload: unknown, ip = "10.2.0.1") {
    return built.app.inject({
      method: "POST",
      url,
      headers: { cookie, origin: ORIGIN, "content-type": "application/json" },
      remoteAddress: ip,
      payload: payload as Record<string, unknown>,
    });
  }

  /** Signs in and returns the session cookie header value (with the code, for someone enrolled here). */
  async function sessionCookie(email: string, password: string): Promise<string> {
    const ip = `10.1.${counter % 250}.${Math.floor(Math.random() * 250)}`;
    const res = await signIn(email, password, ip);
    if (res.statusCode !== 200) throw new Error(`sign-in failed: ${res.statusCode} ${res.body}`);
    if ((res.json() as { twoFactorRedirect?: boolean }).twoFactorRedirect) {
      const secret = totpSecrets.get(email);
      if (!secret) throw new Error(`${email} has two-step verification and no known secret`);
      const code = await totpCode(secret);
      const verified = await post("/api/auth/two-factor/verify-totp", cookieHeader(res), { code }, ip);
      if (verified.statusCode !== 200)
        throw new Error(`second step failed: ${verified.statusCode} ${verified.body}`);
      return cookieHeader(verified);
    }
    return cookieHeader(res);
  }

  /**
   * Sets up two-step verification as a person does in the portal: enable with the password, then confirm
   * with a code from the secret in the otpauth URI. Returns the new session cookie and the backup codes.
   */
  async function enrolTwoFactor(email: string, password: string, cookie: string) {
    const enabled = await post("/api/auth/two-factor/enable", cookie, { password });
    if (enabled.statusCode !== 200) throw new Error(`enable failed: ${enabled.statusCode} ${enabled.body}`);
    const { totpURI, backupCodes } = enabled.json() as { totpURI: string; backupCodes: string[] };
    const secret = secretOfUri(totpURI);
    const verified = await post("/api/auth/two-factor/verify-totp", cookie, { code: await totpCode(secret) });
    if (verified.statusCode !== 200)
      throw new Error(`verify failed: ${verified.statusCode} ${verified.body}`);
    totpSecrets.set(email, secret);
    return { cookie: cookieHeader(verified), secret, backupCodes, totpURI };
  }

  /** A password reset token for the account, as the mailed link carries it (valid one minute). */
  async function resetTokenFor(email: string): Promise<string> {
    const ctx = await built.auth.$context;
    const user = await ctx.internalAdapter.findUserByEmail(email);
    const token = `test-reset-${crypto.randomUUID()}`;
    await ctx.internalAdapter.createVerificationValue({
      identifier: `reset-password:${token}`,
      value: user!.user.id,
      expiresAt: new Date(Date.now() + 60_000),
    });
    return token;
  }

  async function jwtFor(cookie: string): Promise<string> {
    const res = await built.app.inject({ method: "GET", url: "/api/auth/token", headers: { cookie } });
    if (res.statusCode !== 200) throw new Error(`token failed: ${res.statusCode} ${res.body}`);
    return (res.json() as { token: string }).token;
  }

  /** A session that may use the portal: signed in, with two-step verification set up where the role requires it. */
  async function readyCookie(email: string, password: string, role: TRole): Promise<string> {
    const cookie = await sessionCookie(email, password);
    if (!requiresTwoFactor(role, config.mfaRequiredRoles) || totpSecrets.has(email)) return cookie;
    return (await enrolTwoFactor(email, password, cookie)).cookie;
  }

  return {
    ...built,
    config,
    createUser,
    signIn,
    sessionCookie,
    readyCookie,
    jwtFor,
    resetTokenFor,
    enrolTwoFactor,
    post,
    totpSecrets,
  };
}

/** The raw secret (as Better Auth keeps it) behind the base32 key of an otpauth:// URI. */
export function secretOfUri(uri: string): string {
  const key = new URL(uri).searchParams.get("secret") ?? "";
  return new TextDecoder().decode(base32.decode(key));
}

const TOTP_STEP_MS = 30_000;
const handedOut = new Map<string, number>();

/**
 * A 6-digit code of a raw TOTP secret (Better Auth's own OTP helper) that this process has not handed out
 * before: the portal accepts each code once (decision 006), as an authenticator app's person would find
 * when signing in twice within half a minute. Uses the current or the next time step (the server accepts
 * one step either side) and waits for the clock when both are spent.
 */
export async function totpCode(secret: string): Promise<string> {
  for (;;) {
    const now = Math.floor(Date.now() / TOTP_STEP_MS);
    const step = Math.max(now, (handedOut.get(secret) ?? now - 1) + 1);
    if (step <= now + 1) {
      handedOut.set(secret, step);
      return createOTP(secret).hotp(step);
    }
    await new Promise((resolve) => setTimeout(resolve, (now + 1) * TOTP_STEP_MS - Date.now() + 50));
  }
}

export function cookieHeader(res: LightMyRequestResponse): string {
  const raw = res.headers["set-cookie"];
  const list = Array.isArray(raw) ? raw : raw ? [raw] : [];
  return list.map((c) => c.split(";")[0]).join("; ");
}

/** Request headers of a signed-in person of the given role (a new user each call). */
export async function headersFor(
  t: Awaited<ReturnType<typeof createTestApp>>,
  role: TRole,
): Promise<Record<string, string>> {
  const { email, password } = await t.createUser(role);
  // Someone whose role requires two-step verification sets it up first (decision 006).
  return { cookie: await t.readyCookie(email, password, role), origin: ORIGIN };
}
