import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { LightMyRequestResponse } from "fastify";
import { buildApp } from "../../src/app.ts";
import { ensureUser } from "../../src/auth/users.ts";
import { loadConfig } from "../../src/config.ts";
import type { DatabaseHandle } from "../../src/db/client.ts";
import type { TRole } from "@portal/contracts";

export const ORIGIN = "http://127.0.0.1:3999";

export async function createTestApp(database: DatabaseHandle, env: Record<string, string> = {}) {
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
  const built = await buildApp({ config, database, logger: false });
  await built.app.ready();
  let counter = 0;

  /** Creates a user with a unique email through the same path the server uses. */
  async function createUser(
    role: TRole,
    overrides: { email?: string; password?: string; name?: string } = {},
  ) {
    counter += 1;
    const email =
      overrides.email ?? `${role}-${counter}-${Math.random().toString(36).slice(2, 8)}@example.com`;
    const password = overrides.password ?? `correct-horse-${counter}-battery`;
    await ensureUser(built.auth, database.db, {
      email,
      password,
      name: overrides.name ?? `Test ${role} ${counter}`,
      role,
      resetExisting: false,
    });
    return { email, password };
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

  /** Signs in and returns the session cookie header value. */
  async function sessionCookie(email: string, password: string): Promise<string> {
    const res = await signIn(email, password, `10.1.${counter % 250}.${Math.floor(Math.random() * 250)}`);
    if (res.statusCode !== 200) throw new Error(`sign-in failed: ${res.statusCode} ${res.body}`);
    return cookieHeader(res);
  }

  async function jwtFor(cookie: string): Promise<string> {
    const res = await built.app.inject({ method: "GET", url: "/api/auth/token", headers: { cookie } });
    if (res.statusCode !== 200) throw new Error(`token failed: ${res.statusCode} ${res.body}`);
    return (res.json() as { token: string }).token;
  }

  return { ...built, config, createUser, signIn, sessionCookie, jwtFor };
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
  return { cookie: await t.sessionCookie(email, password), origin: ORIGIN };
}
