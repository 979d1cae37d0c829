import { eq, sql } from "drizzle-orm";
import { createLocalJWKSet, decodeProtectedHeader, jwtVerify, type JSONWebKeySet } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "../src/db/client.ts";
import { auditLog, provisioningRequests, users, verifications } from "../src/db/schema.ts";
import { createTestApp, ORIGIN } from "./support/app.ts";
import { createTestDatabase } from "./support/database.ts";
import { startSmtpServer } from "./support/smtp.ts";

let database: DatabaseHandle;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let t: Awaited<ReturnType<typeof createTestApp>>;

beforeAll(async () => {
  database = await createTestDatabase();
  smtp = await startSmtpServer();
  t = await createTestApp(database, { SMTP_URL: smtp.url, AUTH_IP_LIMIT_PER_MINUTE: "1000" });
});
afterAll(async () => {
  await t.app.close();
  await smtp.close();
  await database.close();
});

const json = { origin: ORIGIN, "content-type": "application/json" };
const unique = () => Math.random().toString(36).slice(2, 10);

async function signUp(body: Record<string, unknown>) {
  return t.app.inject({ method: "POST", url: "/api/auth/sign-up/email", headers: json, payload: body });
}

/** Opens the link of the confirmation mail (as the new person does) and answers the session cookie it sets. */
async function confirmEmail(email: string): Promise<string> {
  const mail = await smtp.nextMailTo(email);
  expect(mail.subject).toBe("Confirm your email for the Meridian Tax & Wealth portal");
  const link = new URL(mail.text.match(/https?:\/\/\S+/)![0]);
  const opened = await t.app.inject({ method: "GET", url: link.pathname + link.search });
  expect(opened.statusCode).toBe(302);
  return String(opened.headers["set-cookie"]).split(";")[0]!;
}

/** Self sign-up through to a signed-in session: sign up, then confirm the email. */
async function signUpAndConfirm(body: Record<string, unknown>): Promise<string> {
  const up = await signUp(body);
  expect(up.statusCode).toBe(200);
  return confirmEmail(String(body.email));
}

describe("self sign-up", () => {
  it("creates an author account for an allowed domain, signed in, never admin", async () => {
    const email = `new-${unique()}@meridian-advisory.example`;
    const escalate = await signUp({
      name: "Nora New",
      email,
      password: "a-long-enough-passphrase",
      role: "admin",
    });
    expect(escalate.statusCode).toBe(400);
    expect(await database.db.select().from(users).where(eq(users.email, email))).toHaveLength(0);

    const res = await signUp({ name: "Nora New", email, password: "a-long-enough-passphrase" });
    expect(res.statusCode).toBe(200);
    // No session until the address is confirmed: the answer must not differ from a taken address's.
    expect(String(res.headers["set-cookie"])).not.toMatch(/portal\.session_token=/);
    expect((await t.signIn(email, "a-long-enough-passphrase")).statusCode).toBe(403);
    const cookie = await confirmEmail(email);
    expect(cookie).toMatch(/portal\.session_token=/);
    const [row] = await database.db.select({ role: users.role }).from(users).where(eq(users.email, email));
    expect(row?.role).toBe("author");
    const audit = await database.db.select().from(auditLog).where(eq(auditLog.actorEmail, email));
    expect(audit.map((a) => a.action)).toEqual(expect.arrayContaining(["auth.sign_up", "auth.sign_in"]));
  });

  it("answers alike for a taken and a free address, and mails the owner of the taken one instead", async () => {
    const { email: taken } = await t.createUser("client", {
      email: `taken-${unique()}@meridian-advisory.example`,
    });
    const free = `free-${unique()}@meridian-advisory.example`;
    const before = await database.db.select().from(users).where(eq(users.email, taken));
    const answers = await Promise.all(
      [taken, free].map((email) => signUp({ name: "Sam Same", email, password: "a-long-enough-passphrase" })),
    );
    const shape = (r: (typeof answers)[number]) => {
      const body = r.json() as { token: unknown; user: Record<string, unknown> };
      return {
        status: r.statusCode,
        cookie: r.headers["set-cookie"] ?? null,
        token: body.token,
        userKeys: Object.keys(body.user).sort(),
        user: { ...body.user, id: "-", email: "-", createdAt: "-", updatedAt: "-" },
      };
    };
    expect(shape(answers[0]!)).toEqual(shape(answers[1]!));
    expect(answers[0]!.statusCode).toBe(200);
    expect(answers[0]!.headers["set-cookie"]).toBeUndefined();

    const ownerMail = await smtp.nextMailTo(taken);
    expect(ownerMail.subject).toBe(
      "Someone tried to create a Meridian Tax & Wealth portal account with your email",
    );
    expect((await smtp.nextMailTo(free)).subject).toBe(
      "Confirm your email for the Meridian Tax & Wealth portal",
    );
    // The taken account is as it was.
    expect(await database.db.select().from(users).where(eq(users.email, taken))).toEqual(before);
  });

  it("keeps the chosen editor role and queues the BI member once the email is confirmed", async () => {
    const email = `editor-${unique()}@meridian-advisory.example`;
    await signUpAndConfirm({
      name: "Eddie Tor",
      email,
      password: "a-long-enough-passphrase",
      signUpRole: "editor",
    });
    const [user] = await database.db.select().from(users).where(eq(users.email, email));
    expect(user?.role).toBe("editor");
    expect(user?.emailVerified).toBe(true);
    const queued = await database.db
      .select({ kind: provisioningRequests.kind, payload: provisioningRequests.payload })
      .from(provisioningRequests)
      .where(eq(provisioningRequests.userId, user!.id));
    expect(queued).toEqual([
      { kind: "member.upsert", payload: { name: "Eddie Tor", email, role: "editor" } },
    ]);
  });

  it("refuses an email domain that is not allowed, with a readable message, and creates nothing", async () => {
    const email = `outsider-${unique()}@gmail.example`;
    const res = await signUp({ name: "Out Sider", email, password: "a-long-enough-passphrase" });
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe(
      "Self sign-up is open only to email addresses at meridian-advisory.example.",
    );
    expect(await database.db.select().from(users).where(eq(users.email, email))).toHaveLength(0);
  });

  it("is off with a clear message when no domains are configured", async () => {
    const closed = await createTestApp(database, { SIGNUP_ALLOWED_DOMAINS: "" });
    try {
      const res = await closed.app.inject({
        method: "POST",
        url: "/api/auth/sign-up/email",
        headers: json,
        payload: {
          name: "X",
          email: `x-${unique()}@meridian-advisory.example`,
          password: "a-long-enough-passphrase",
        },
      });
      expect(res.statusCode).toBe(403);
      expect(res.json().message).toBe("Self sign-up is turned off. Ask the firm to create your account.");
      const config = await closed.app.inject({ method: "GET", url: "/api/config" });
      expect(config.json()).toMatchObject({ signUpEnabled: false, socialProviders: [] });
    } finally {
      await closed.app.close();
    }
  });

  it.each([
    ["seven characters", "abcdefg", /at least 8|too short/i],
    ["129 characters", "x".repeat(129), /too long|at most 128/i],
    ["a very common password", "password123", /most commonly used passwords/],
  ])("rejects %s", async (_label, password, message) => {
    const email = `pw-${unique()}@meridian-advisory.example`;
    const res = await signUp({ name: "Pat Word", email, password });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(message);
    expect(await database.db.select().from(users).where(eq(users.email, email))).toHaveLength(0);
  });

  it("accepts a 128-character passphrase with no composition rules", async () => {
    const res = await signUp({
      name: "Long Phrase",
      email: `long-${unique()}@meridian-advisory.example`,
      password: "all lower case words ".repeat(7).slice(0, 128),
    });
    expect(res.statusCode).toBe(200);
  });
});

describe("JWT for API callers", () => {
  it("verifies against the published JWKS and carries the admin claim", async () => {
    const admin = await t.createUser("admin");
    const client = await t.createUser("client");
    const jwks = (await t.app.inject({ method: "GET", url: "/api/auth/jwks" })).json() as JSONWebKeySet;
    const keys = createLocalJWKSet(jwks);

    const adminJwt = await t.jwtFor(await t.readyCookie(admin.email, admin.password, "admin"));
    const clientJwt = await t.jwtFor(await t.sessionCookie(client.email, client.password));
    expect(decodeProtectedHeader(adminJwt).alg).toBe("EdDSA");

    const a = await jwtVerify(adminJwt, keys, { issuer: ORIGIN, audience: ORIGIN, algorithms: ["EdDSA"] });
    const c = await jwtVerify(clientJwt, keys, { issuer: ORIGIN, audience: ORIGIN, algorithms: ["EdDSA"] });
    expect(a.payload).toMatchObject({ admin: true, role: "admin", email: admin.email });
    expect(c.payload).toMatchObject({ admin: false, role: "client", email: client.email });
    expect(c.payload.exp! - c.payload.iat!).toBeLessThanOrEqual(15 * 60);
  });
});

describe("provision endpoint and the API guard", () => {
  const provision = (headers: Record<string, string>, payload: object) =>
    t.app.inject({ method: "POST", url: "/api/sigma/provision", headers: { ...json, ...headers }, payload });

  it("answers 401 without a session or token, and for a forged token", async () => {
    expect((await provision({}, { name: "A", email: "a@b.example", role: "editor" })).statusCode).toBe(401);
    const forged = "eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4IiwiYWRtaW4iOnRydWUsInNpZCI6IngifQ.";
    const res = await provision(
      { authorization: `Bearer ${forged}` },
      { name: "A", email: "a@b.example", role: "editor" },
    );
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ error: "The access token is invalid or has expired." });
  });

  it("records the chosen role and a durable provisioning request for the caller", async () => {
    const email = `prov-${unique()}@meridian-advisory.example`;
    const cookie = await signUpAndConfirm({ name: "Ed Itor", email, password: "a-long-enough-passphrase" });
    const jwt = await t.jwtFor(cookie);
    const res = await provision(
      { authorization: `Bearer ${jwt}` },
      { name: "Ed Itor", email, role: "editor" },
    );
    expect(res.statusCode).toBe(202);
    const body = res.json() as { status: string; requestId: string };
    expect(body.status).toBe("queued");
    const [user] = await database.db.select().from(users).where(eq(users.email, email));
    expect(user?.role).toBe("editor");
    const [request] = await database.db
      .select()
      .from(provisioningRequests)
      .where(eq(provisioningRequests.id, body.requestId));
    expect(request).toMatchObject({ userId: user!.id, kind: "member.upsert", status: "pending" });
    expect(request?.payload).toEqual({ name: "Ed Itor", email, role: "editor" });

    // Calling it again does not queue a duplicate.
    const again = await provision(
      { authorization: `Bearer ${jwt}` },
      { name: "Ed Itor", email, role: "editor" },
    );
    expect(again.json().requestId).toBe(body.requestId);
  });

  it("rejects another person's email, a role outside editor/author, and unknown fields", async () => {
    const email = `prov2-${unique()}@meridian-advisory.example`;
    const jwt = await t.jwtFor(
      await signUpAndConfirm({ name: "Au Thor", email, password: "a-long-enough-passphrase" }),
    );
    const auth = { authorization: `Bearer ${jwt}` };
    const mismatch = await provision(auth, {
      name: "X",
      email: "someone-else@meridian-advisory.example",
      role: "author",
    });
    expect(mismatch.statusCode).toBe(400);
    expect(mismatch.json().error).toBe("The email does not match the signed-in account.");
    const admin = await provision(auth, { name: "X", email, role: "admin" });
    expect(admin.statusCode).toBe(400);
    expect(admin.json().error).toMatch(/^role: /);
    const extra = await provision(auth, { name: "X", email, role: "author", isAdmin: true });
    expect(extra.statusCode).toBe(400);
    const [user] = await database.db.select({ role: users.role }).from(users).where(eq(users.email, email));
    expect(user?.role).toBe("author");
  });

  it("forbids clients from changing their own access", async () => {
    const client = await t.createUser("client");
    const jwt = await t.jwtFor(await t.sessionCookie(client.email, client.password));
    const res = await provision(
      { authorization: `Bearer ${jwt}` },
      { name: "C", email: client.email, role: "editor" },
    );
    expect(res.statusCode).toBe(403);
    const [user] = await database.db
      .select({ role: users.role })
      .from(users)
      .where(eq(users.email, client.email));
    expect(user?.role).toBe("client");
  });

  it("stops accepting a JWT as soon as its session ends", async () => {
    const email = `rev-${unique()}@meridian-advisory.example`;
    const cookie = await signUpAndConfirm({ name: "Re Voked", email, password: "a-long-enough-passphrase" });
    const jwt = await t.jwtFor(cookie);
    await t.app.inject({ method: "POST", url: "/api/auth/sign-out", headers: { cookie, origin: ORIGIN } });
    const res = await provision({ authorization: `Bearer ${jwt}` }, { name: "R", email, role: "editor" });
    expect(res.statusCode).toBe(401);
  });

  it("refuses a cookie-authenticated write from another origin (CSRF)", async () => {
    const email = `csrf-${unique()}@meridian-advisory.example`;
    const cookie = await signUpAndConfirm({ name: "Cs Rf", email, password: "a-long-enough-passphrase" });
    const res = await provision(
      { cookie, origin: "https://evil.example" },
      { name: "C", email, role: "editor" },
    );
    expect(res.statusCode).toBe(403);
    const ok = await provision({ cookie }, { name: "C", email, role: "editor" });
    expect(ok.statusCode).toBe(202);
  });

  it("denies unknown /api routes by default and answers 404 JSON to a signed-in caller", async () => {
    expect((await t.app.inject({ method: "GET", url: "/api/nothing-here" })).statusCode).toBe(401);
    const client = await t.createUser("client");
    const cookie = await t.sessionCookie(client.email, client.password);
    const res = await t.app.inject({ method: "GET", url: "/api/nothing-here", headers: { cookie } });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ error: "Not found." });
  });
});

describe("password reset", () => {
  const requestReset = (email: string) =>
    t.app.inject({
      method: "POST",
      url: "/api/auth/request-password-reset",
      headers: json,
      payload: { email, redirectTo: "/reset-password" },
    });

  it("answers the same for unknown emails (no account enumeration) and sends no mail", async () => {
    const unknown = await requestReset(`ghost-${unique()}@example.com`);
    const { email } = await t.createUser("client");
    const known = await requestReset(email);
    expect(unknown.statusCode).toBe(200);
    expect(unknown.json()).toEqual(known.json());
    await smtp.nextMailTo(email);
    expect(smtp.received.filter((m) => m.to.startsWith("ghost-"))).toHaveLength(0);
  });

  it("mails a one-hour, single-use link that sets a new password and ends old sessions", async () => {
    const { email, password } = await t.createUser("client");
    const oldCookie = await t.sessionCookie(email, password);
    expect((await requestReset(email)).statusCode).toBe(200);

    const mail = await smtp.nextMailTo(email);
    expect(mail.subject).toBe("Reset your Meridian Tax & Wealth portal password");
    const link = mail.text.match(/https?:\/\/\S+/)?.[0];
    expect(link).toBeDefined();
    const url = new URL(link!);
    expect(url.origin).toBe(ORIGIN);

    // The link lands on the SPA's reset page with the token.
    const landing = await t.app.inject({ method: "GET", url: url.pathname + url.search });
    expect(landing.statusCode).toBe(302);
    const target = new URL(landing.headers.location!, ORIGIN);
    expect(target.pathname).toBe("/reset-password");
    const token = target.searchParams.get("token")!;
    expect(token).toBeTruthy();

    const [stored] = await database.db
      .select({ expiresAt: verifications.expiresAt })
      .from(verifications)
      .where(eq(verifications.identifier, `reset-password:${token}`));
    const lifetime = stored!.expiresAt.getTime() - Date.now();
    expect(lifetime).toBeGreaterThan(59 * 60 * 1000);
    expect(lifetime).toBeLessThanOrEqual(60 * 60 * 1000);

    const reset = (newPassword: string) =>
      t.app.inject({
        method: "POST",
        url: "/api/auth/reset-password",
        headers: json,
        payload: { newPassword, token },
      });
    expect((await reset("my-brand-new-passphrase")).statusCode).toBe(200);
    expect((await t.signIn(email, "my-brand-new-passphrase")).statusCode).toBe(200);
    expect((await t.signIn(email, password)).statusCode).toBe(401);

    const second = await reset("another-new-passphrase");
    expect(second.statusCode).toBe(400);
    expect(second.json().message).toMatch(/invalid token/i);
    const reused = await t.app.inject({ method: "GET", url: url.pathname + url.search });
    expect(reused.headers.location).toMatch(/error=INVALID_TOKEN/);

    const session = await t.app.inject({
      method: "GET",
      url: "/api/auth/get-session",
      headers: { cookie: oldCookie },
    });
    expect(session.json()).toBeNull();

    const audit = await database.db.select().from(auditLog).where(eq(auditLog.actorEmail, email));
    const actions = audit.map((a) => `${a.action}:${a.outcome}`);
    expect(actions).toEqual(
      expect.arrayContaining([
        "auth.password_reset.requested:success",
        "auth.password_reset.completed:success",
      ]),
    );
    expect(JSON.stringify(audit)).not.toContain(token);
    expect(JSON.stringify(audit)).not.toContain("my-brand-new-passphrase");
  });

  it("clears the account lock when the password is reset", async () => {
    const locked = await createTestApp(database, {
      SMTP_URL: smtp.url,
      SIGNIN_MAX_FAILURES: "2",
      SIGNIN_LOCK_WINDOW_SECONDS: "3600",
    });
    try {
      const { email } = await locked.createUser("client");
      await locked.signIn(email, "wrong-one-password");
      await locked.signIn(email, "wrong-two-password");
      expect((await locked.signIn(email, "wrong-three-password")).statusCode).toBe(429);
      await locked.app.inject({
        method: "POST",
        url: "/api/auth/request-password-reset",
        headers: json,
        payload: { email, redirectTo: "/reset-password" },
      });
      const link = (await smtp.nextMailTo(email)).text.match(/https?:\/\/\S+/)![0];
      const landing = await locked.app.inject({
        method: "GET",
        url: new URL(link).pathname + new URL(link).search,
      });
      const token = new URL(landing.headers.location!, ORIGIN).searchParams.get("token")!;
      await locked.app.inject({
        method: "POST",
        url: "/api/auth/reset-password",
        headers: json,
        payload: { newPassword: "fresh-start-passphrase", token },
      });
      expect((await locked.signIn(email, "fresh-start-passphrase")).statusCode).toBe(200);
    } finally {
      await locked.app.close();
    }
  });
});

describe("audit trail", () => {
  it("is append-only: the database rejects updates and deletes", async () => {
    const { email, password } = await t.createUser("client");
    await t.signIn(email, password);
    await expect(database.db.execute(sql`update audit_log set action = 'x'`)).rejects.toThrow();
    await expect(database.db.execute(sql`delete from audit_log`)).rejects.toThrow();
    const rows = await database.db.select().from(auditLog).where(eq(auditLog.actorEmail, email));
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((r) => r.occurredAt instanceof Date)).toBe(true);
  });
});

describe("security headers", () => {
  it("sends a CSP without inline scripts that frames only the configured BI origin", async () => {
    const res = await t.app.inject({ method: "GET", url: "/healthz" });
    const csp = String(res.headers["content-security-policy"]);
    expect(csp).toContain("script-src 'self';");
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("base-uri 'none'");
    expect(csp).toContain("frame-ancestors 'self'");
    expect(csp).toContain(`frame-src 'self' ${new URL(t.config.sigma.embedBaseUrl).origin};`);
    expect(csp).toMatch(/script-src 'self';/); // no inline or eval script sources
    expect(csp).not.toMatch(/script-src[^;]*unsafe/);
    expect(res.headers["x-content-type-options"]).toBe("nosniff");
    expect(res.headers["referrer-policy"]).toBe("strict-origin-when-cross-origin");
  });
});

describe("identity provider endpoints outside the back office", () => {
  it("are closed even to an admin: people are managed only through the audited back office API", async () => {
    const { email, password } = await t.createUser("admin");
    const cookie = await t.readyCookie(email, password, "admin");
    const victim = await t.createUser("client");
    const [row] = await database.db.select({ id: users.id }).from(users).where(eq(users.email, victim.email));
    const attempts: [string, object][] = [
      ["/api/auth/admin/impersonate-user", { userId: row!.id }],
      ["/api/auth/admin/set-role", { userId: row!.id, role: "admin" }],
      [
        "/api/auth/admin/create-user",
        { email: "x@example.com", password: "a-long-passphrase", name: "X", role: "admin" },
      ],
      ["/api/auth/admin/set-user-password", { userId: row!.id, newPassword: "a-long-passphrase" }],
      ["/api/auth/admin/remove-user", { userId: row!.id }],
      ["/api/auth/change-email", { newEmail: "changed@example.com" }],
    ];
    for (const [url, payload] of attempts) {
      const res = await t.app.inject({ method: "POST", url, headers: { ...json, cookie }, payload });
      expect(res.statusCode, url).toBe(404);
    }
    const [after] = await database.db.select().from(users).where(eq(users.id, row!.id));
    expect(after).toMatchObject({ role: "client", email: victim.email });
    expect((await t.signIn(victim.email, victim.password)).statusCode).toBe(200);
  });
});
