import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "../src/db/client.ts";
import { accounts, auditLog, users } from "../src/db/schema.ts";
import { createTestApp, ORIGIN } from "./support/app.ts";
import { createTestDatabase } from "./support/database.ts";

let database: DatabaseHandle;
let t: Awaited<ReturnType<typeof createTestApp>>;

beforeAll(async () => {
  database = await createTestDatabase();
  t = await createTestApp(database, { SIGNIN_LOCK_WINDOW_SECONDS: "2", AUTH_IP_LIMIT_PER_MINUTE: "1000" });
});
afterAll(async () => {
  await t.app.close();
  await database.close();
});

describe("email and password sign-in", () => {
  it("signs in with the right password and sets an HttpOnly, SameSite=Lax session cookie", async () => {
    const { email, password } = await t.createUser("client");
    const res = await t.signIn(email, password);
    expect(res.statusCode).toBe(200);
    const cookie = String(res.headers["set-cookie"]);
    expect(cookie).toMatch(/portal\.session_token=/);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    expect(res.body).not.toContain("password");
  });

  it("answers a wrong password with 401 and a readable message, and audits the failure", async () => {
    const { email } = await t.createUser("client");
    const res = await t.signIn(email, "not-the-password-at-all");
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ message: "Invalid email or password" });
    const rows = await database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.actorEmail, email), eq(auditLog.action, "auth.sign_in")));
    expect(rows.map((r) => r.outcome)).toEqual(["failure"]);
    expect(JSON.stringify(rows)).not.toContain("not-the-password-at-all");
  });

  it("stores passwords as Argon2id hashes, never in clear", async () => {
    const { email, password } = await t.createUser("employee");
    const [row] = await database.db
      .select({ password: accounts.password })
      .from(accounts)
      .innerJoin(users, eq(users.id, accounts.userId))
      .where(eq(users.email, email));
    expect(row?.password).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(row?.password).not.toContain(password);
  });

  it("locks an account for the window after 10 failed sign-ins, then the right password works again", async () => {
    const { email, password } = await t.createUser("client");
    for (let i = 0; i < 10; i++) {
      // Different addresses: the per-account limit holds whatever IP the attacker uses.
      const res = await t.signIn(email, `wrong-password-${i}`, `192.0.2.${i + 1}`);
      expect(res.statusCode).toBe(401);
    }
    const locked = await t.signIn(email, password, "192.0.2.99");
    expect(locked.statusCode).toBe(429);
    expect(locked.json().message).toMatch(
      /Too many failed sign-in attempts for this account\. Try again in \d+ seconds/,
    );
    expect(Number(locked.headers["retry-after"])).toBeGreaterThan(0);

    // Another account is not affected.
    const other = await t.createUser("client");
    expect((await t.signIn(other.email, other.password, "192.0.2.99")).statusCode).toBe(200);

    // The lock is time-boxed: once the window has passed the right password works.
    const deadline = Date.now() + 10_000;
    let status = 429;
    while (status === 429 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 250));
      status = (await t.signIn(email, password, "192.0.2.99")).statusCode;
    }
    expect(status).toBe(200);
    const outcomes = await database.db
      .select({ outcome: auditLog.outcome })
      .from(auditLog)
      .where(and(eq(auditLog.actorEmail, email), eq(auditLog.action, "auth.sign_in")));
    expect(outcomes.map((o) => o.outcome)).toContain("rate_limited");
  });

  it("limits sign-in requests per IP address with a 429", async () => {
    const limited = await createTestApp(database, { AUTH_IP_LIMIT_PER_MINUTE: "3" });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) {
        const res = await limited.signIn(`nobody-${i}@example.com`, "whatever-password", "198.51.100.7");
        statuses.push(res.statusCode);
      }
      expect(statuses.slice(0, 3)).toEqual([401, 401, 401]);
      expect(statuses[3]).toBe(429);
      // A different address is not limited by the first one's requests.
      expect(
        (await limited.signIn("nobody@example.com", "whatever-password", "198.51.100.8")).statusCode,
      ).toBe(401);
    } finally {
      await limited.app.close();
    }
  });

  it("ignores a client-supplied X-Forwarded-For when no proxy is trusted", async () => {
    const limited = await createTestApp(database, { AUTH_IP_LIMIT_PER_MINUTE: "2" });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 3; i++) {
        const res = await limited.app.inject({
          method: "POST",
          url: "/api/auth/sign-in/email",
          remoteAddress: "203.0.113.5",
          headers: { origin: ORIGIN, "x-forwarded-for": `198.18.0.${i}` },
          payload: { email: "spoof@example.com", password: "whatever-password" },
        });
        statuses.push(res.statusCode);
      }
      expect(statuses).toEqual([401, 401, 429]);
    } finally {
      await limited.app.close();
    }
  });

  it("signs out, ends the session and audits it", async () => {
    const { email, password } = await t.createUser("client");
    const cookie = await t.sessionCookie(email, password);
    const out = await t.app.inject({
      method: "POST",
      url: "/api/auth/sign-out",
      headers: { cookie, origin: ORIGIN },
    });
    expect(out.statusCode).toBe(200);
    const session = await t.app.inject({ method: "GET", url: "/api/auth/get-session", headers: { cookie } });
    expect(session.json()).toBeNull();
    const rows = await database.db
      .select({ action: auditLog.action })
      .from(auditLog)
      .where(eq(auditLog.actorEmail, email));
    expect(rows.map((r) => r.action)).toEqual(expect.arrayContaining(["auth.sign_in", "auth.sign_out"]));
  });

  it("refuses a sign-in posted from another site (origin check)", async () => {
    const { email, password } = await t.createUser("client");
    const res = await t.app.inject({
      method: "POST",
      url: "/api/auth/sign-in/email",
      headers: { origin: "https://evil.example", cookie: "portal.session_token=x" },
      payload: { email, password },
    });
    expect(res.statusCode).toBe(403);
  });
});
