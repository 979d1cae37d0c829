import { DEMO_ADMIN } from "@portal/contracts/demo";
import { and, eq, inArray } from "drizzle-orm";
import { createOTP } from "@better-auth/utils/otp";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../src/config.ts";
import type { DatabaseHandle } from "../src/db/client.ts";
import { auditLog, twoFactors, users } from "../src/db/schema.ts";
import { resetTwoFactor } from "../src/auth/two-factor.ts";
import { seedDemoData } from "../src/demo/seed.ts";
import { cookieHeader, createTestApp, headersFor, ORIGIN, secretOfUri, totpCode } from "./support/app.ts";
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

const get = (url: string, cookie: string) =>
  t.app.inject({ method: "GET", url, headers: { cookie, origin: ORIGIN } });

async function auditOf(email: string, actions: string[]) {
  const rows = await database.db
    .select({ action: auditLog.action, outcome: auditLog.outcome, details: auditLog.details })
    .from(auditLog)
    .where(and(eq(auditLog.actorEmail, email), inArray(auditLog.action, actions)))
    .orderBy(auditLog.id);
  return rows.map((r) => `${r.action}:${r.outcome}`);
}

/** A wrong 6-digit code for a secret (one that is none of the accepted window's codes). */
async function wrongCode(secret: string) {
  const now = Math.floor(Date.now() / 30_000);
  const window = await Promise.all(
    [now - 1, now, now + 1, now + 2].map((step) => createOTP(secret).hotp(step)),
  );
  return ["000000", "111111", "222222", "333333", "444444"].find((code) => !window.includes(code))!;
}

describe("MFA_REQUIRED_ROLES", () => {
  const base = { NODE_ENV: "test", BETTER_AUTH_SECRET: "x".repeat(40), DATA_DIR: "/tmp/portal-mfa-config" };

  it("defaults to admin, accepts a list, and an empty string means no role", () => {
    expect(loadConfig(base).mfaRequiredRoles).toEqual(["admin"]);
    expect(loadConfig({ ...base, MFA_REQUIRED_ROLES: "admin, employee" }).mfaRequiredRoles).toEqual([
      "admin",
      "employee",
    ]);
    expect(loadConfig({ ...base, MFA_REQUIRED_ROLES: "" }).mfaRequiredRoles).toEqual([]);
  });

  it("stops start-up on an unknown role", () => {
    expect(() => loadConfig({ ...base, MFA_REQUIRED_ROLES: "admin,root" })).toThrow(ConfigError);
    expect(() => loadConfig({ ...base, MFA_REQUIRED_ROLES: "admin,root" })).toThrow(
      /MFA_REQUIRED_ROLES: "root" is not a role/,
    );
  });

  it("is published to the browser in /api/config", async () => {
    const res = await t.app.inject({ method: "GET", url: "/api/config" });
    expect(res.json()).toMatchObject({ mfaRequiredRoles: ["admin"] });
  });
});

describe("before an admin has set up two-step verification", () => {
  it("answers 403 MFA_ENROLLMENT_REQUIRED on everything except what enrolment needs", async () => {
    const { email, password } = await t.createUser("admin");
    const cookie = await t.sessionCookie(email, password);

    for (const url of [
      "/api/admin/clients",
      "/api/admin/workbooks",
      "/api/me/workbooks",
      "/api/auth/token",
    ]) {
      const res = await get(url, cookie);
      expect(res.statusCode, url).toBe(403);
      const body = res.json() as { code?: string; error?: string; message?: string };
      expect(body.code, url).toBe("MFA_ENROLLMENT_REQUIRED");
      expect(body.error ?? body.message).toMatch(/requires two-step verification/);
    }
    const write = await t.post("/api/admin/addworkbook", cookie, {
      workbook_name: "Blocked-abcdefghijklmnopqrstuv",
      team_name: "Blocked",
    });
    expect(write.statusCode).toBe(403);
    expect(write.json()).toMatchObject({ code: "MFA_ENROLLMENT_REQUIRED" });

    // The session, public config and the enrolment endpoints stay open.
    const session = await get("/api/auth/get-session", cookie);
    expect(session.statusCode).toBe(200);
    expect(session.json()).toMatchObject({ user: { email, role: "admin", twoFactorEnabled: false } });
    expect((await get("/api/config", cookie)).statusCode).toBe(200);
    const enable = await t.post("/api/auth/two-factor/enable", cookie, { password });
    expect(enable.statusCode).toBe(200);
    expect((await t.post("/api/auth/sign-out", cookie, {})).statusCode).toBe(200);
  });

  it("does not apply to roles outside MFA_REQUIRED_ROLES", async () => {
    const { cookie } = await headersFor(t, "client");
    expect((await get("/api/me/workbooks", cookie!)).statusCode).toBe(200);
    expect((await get("/api/auth/token", cookie!)).statusCode).toBe(200);
  });

  it("applies to whichever roles the configuration names", async () => {
    const strict = await createTestApp(database, { MFA_REQUIRED_ROLES: "client" });
    try {
      const client = await strict.createUser("client");
      const cookie = await strict.sessionCookie(client.email, client.password);
      const res = await strict.app.inject({ method: "GET", url: "/api/me/workbooks", headers: { cookie } });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ code: "MFA_ENROLLMENT_REQUIRED" });
      // With no role required, an unenrolled admin may work.
      const relaxed = await createTestApp(database, { MFA_REQUIRED_ROLES: "" });
      try {
        const admin = await relaxed.createUser("admin");
        const adminCookie = await relaxed.sessionCookie(admin.email, admin.password);
        const list = await relaxed.app.inject({
          method: "GET",
          url: "/api/admin/workbooks",
          headers: { cookie: adminCookie },
        });
        expect(list.statusCode).toBe(200);
      } finally {
        await relaxed.app.close();
      }
    } finally {
      await strict.app.close();
    }
  });
});

describe("enrolment", () => {
  it("needs the password, confirms with a code, then opens the admin API and audits it", async () => {
    const { email, password } = await t.createUser("admin");
    const cookie = await t.sessionCookie(email, password);

    const wrongPassword = await t.post("/api/auth/two-factor/enable", cookie, {
      password: "not-my-password-1",
    });
    expect(wrongPassword.statusCode).toBe(400);

    const enabled = await t.post("/api/auth/two-factor/enable", cookie, { password });
    expect(enabled.statusCode).toBe(200);
    const { totpURI, backupCodes } = enabled.json() as { totpURI: string; backupCodes: string[] };
    expect(totpURI).toMatch(/^otpauth:\/\/totp\/Meridian%20Client%20Portal:/);
    expect(backupCodes).toHaveLength(10);
    const [row] = await database.db
      .select()
      .from(twoFactors)
      .innerJoin(users, eq(users.id, twoFactors.userId))
      .where(eq(users.email, email));
    // Stored encrypted, not yet confirmed, and the person is not enrolled until a code matches.
    expect(row!.two_factor.verified).toBe(false);
    expect(row!.two_factor.secret).not.toContain(new URL(totpURI).searchParams.get("secret"));
    expect(row!.two_factor.backupCodes).not.toContain(backupCodes[0]);
    expect(row!.users.twoFactorEnabled).toBe(false);

    const secret = secretOfUri(totpURI);
    const wrong = await t.post("/api/auth/two-factor/verify-totp", cookie, { code: await wrongCode(secret) });
    expect(wrong.statusCode).toBe(401);
    expect((await get("/api/admin/workbooks", cookie)).statusCode).toBe(403);

    const confirmed = await t.post("/api/auth/two-factor/verify-totp", cookie, {
      code: await totpCode(secret),
    });
    expect(confirmed.statusCode).toBe(200);
    const newCookie = cookieHeader(confirmed);
    expect((await get("/api/admin/workbooks", newCookie)).statusCode).toBe(200);
    const [after] = await database.db.select().from(users).where(eq(users.email, email));
    expect(after!.twoFactorEnabled).toBe(true);

    expect(await auditOf(email, ["auth.mfa.enrolment_started", "auth.mfa.enabled"])).toEqual([
      "auth.mfa.enrolment_started:failure",
      "auth.mfa.enrolment_started:success",
      "auth.mfa.enabled:failure",
      "auth.mfa.enabled:success",
    ]);
  });

  it("refuses trusted devices, which would let a later sign-in skip the code", async () => {
    const { email, password } = await t.createUser("admin");
    const cookie = await t.sessionCookie(email, password);
    const { secret } = await t.enrolTwoFactor(email, password, cookie);
    const challenge = await t.signIn(email, password, "10.9.0.1");
    const res = await t.post(
      "/api/auth/two-factor/verify-totp",
      cookieHeader(challenge),
      { code: await totpCode(secret), trustDevice: true },
      "10.9.0.1",
    );
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: "TRUST_DEVICE_NOT_OFFERED" });
  });
});

describe("signing in with two-step verification", () => {
  let admin: { email: string; password: string; secret: string; backupCodes: string[] };

  // A new admin for each test: each code works once, and an authenticator shows one a half-minute.
  beforeEach(async () => {
    const { email, password } = await t.createUser("admin");
    const cookie = await t.sessionCookie(email, password);
    const { secret, backupCodes } = await t.enrolTwoFactor(email, password, cookie);
    admin = { email, password, secret, backupCodes };
  });

  it("asks for the code after the password and gives no session until it is right", async () => {
    const ip = "10.3.0.1";
    const challenge = await t.signIn(admin.email, admin.password, ip);
    expect(challenge.statusCode).toBe(200);
    expect(challenge.json()).toEqual({ twoFactorRedirect: true, twoFactorMethods: ["totp"] });
    const pending = cookieHeader(challenge);
    expect(pending).toMatch(/portal\.two_factor=/);
    expect((await get("/api/auth/get-session", pending)).json()).toBeNull();
    expect((await get("/api/admin/workbooks", pending)).statusCode).toBe(401);

    const wrong = await t.post(
      "/api/auth/two-factor/verify-totp",
      pending,
      { code: await wrongCode(admin.secret) },
      ip,
    );
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toMatchObject({ code: "INVALID_CODE" });

    const code = await totpCode(admin.secret);
    const right = await t.post("/api/auth/two-factor/verify-totp", pending, { code }, ip);
    expect(right.statusCode).toBe(200);
    const session = cookieHeader(right);
    expect((await get("/api/admin/workbooks", session)).statusCode).toBe(200);

    // The pending step is used up.
    const again = await t.post("/api/auth/two-factor/verify-totp", pending, { code }, ip);
    expect(again.statusCode).toBe(401);
    expect(again.json()).toMatchObject({ code: "INVALID_TWO_FACTOR_COOKIE" });

    const rows = await database.db
      .select({ action: auditLog.action, outcome: auditLog.outcome, details: auditLog.details })
      .from(auditLog)
      .where(
        and(
          eq(auditLog.actorEmail, admin.email),
          inArray(auditLog.action, ["auth.mfa.challenge", "auth.mfa.verify", "auth.sign_in"]),
          eq(auditLog.ip, ip),
        ),
      )
      .orderBy(auditLog.id);
    expect(rows.map((r) => `${r.action}:${r.outcome}`)).toEqual([
      "auth.mfa.challenge:success",
      "auth.mfa.verify:failure",
      "auth.mfa.verify:success",
      "auth.sign_in:success",
    ]);
    expect(rows[1]!.details).toMatchObject({ method: "totp", status: 401, code: "INVALID_CODE" });
    expect(rows[3]!.details).toMatchObject({ method: "/two-factor/verify-totp" });
  });

  it("accepts each code once: a second sign-in with it is refused, the next code works (ASVS 6.5.1)", async () => {
    const ip = "10.3.0.4";
    const code = await totpCode(admin.secret);
    const first = cookieHeader(await t.signIn(admin.email, admin.password, ip));
    expect((await t.post("/api/auth/two-factor/verify-totp", first, { code }, ip)).statusCode).toBe(200);

    const second = cookieHeader(await t.signIn(admin.email, admin.password, ip));
    const reused = await t.post("/api/auth/two-factor/verify-totp", second, { code }, ip);
    expect(reused.statusCode).toBe(401);
    // The portal's error body, with Better Auth's `message` beside it for its client library.
    expect(reused.json()).toEqual({
      error: "This code has already been used. Wait for the next code in your authenticator app.",
      code: "TOTP_CODE_USED",
      message: "This code has already been used. Wait for the next code in your authenticator app.",
      requestId: expect.any(String),
    });
    expect(cookieHeader(reused)).not.toMatch(/session_token/);
    expect((await get("/api/auth/get-session", second)).json()).toBeNull();

    // The sign-in step is still open: the next code of the app finishes it.
    const next = await t.post(
      "/api/auth/two-factor/verify-totp",
      second,
      { code: await totpCode(admin.secret) },
      ip,
    );
    expect(next.statusCode).toBe(200);
    expect(await auditOf(admin.email, ["auth.mfa.verify"])).toEqual([
      "auth.mfa.verify:success",
      "auth.mfa.verify:denied",
      "auth.mfa.verify:success",
    ]);
  });

  it("lets only one of two simultaneous sign-ins with the same code through", async () => {
    const ip = "10.3.0.5";
    const code = await totpCode(admin.secret);
    const pendings = [
      cookieHeader(await t.signIn(admin.email, admin.password, ip)),
      cookieHeader(await t.signIn(admin.email, admin.password, ip)),
    ];
    const answers = await Promise.all(
      pendings.map((pending) => t.post("/api/auth/two-factor/verify-totp", pending, { code }, ip)),
    );
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 401]);
    expect(answers.find((a) => a.statusCode === 401)!.json()).toMatchObject({ code: "TOTP_CODE_USED" });
  });

  it("does not take the code that confirmed the enrolment for a sign-in", async () => {
    const { email, password } = await t.createUser("admin");
    const session = await t.sessionCookie(email, password);
    const enabled = await t.post("/api/auth/two-factor/enable", session, { password });
    const secret = secretOfUri((enabled.json() as { totpURI: string }).totpURI);
    const code = await totpCode(secret);
    const setUp = await t.post("/api/auth/two-factor/verify-totp", session, { code });
    expect(setUp.statusCode).toBe(200);
    const pending = cookieHeader(await t.signIn(email, password, "10.3.0.6"));
    const reused = await t.post("/api/auth/two-factor/verify-totp", pending, { code }, "10.3.0.6");
    expect(reused.statusCode).toBe(401);
    expect(reused.json()).toMatchObject({ code: "TOTP_CODE_USED" });
  });

  it("ends the attempt after five wrong codes", async () => {
    const ip = "10.3.0.2";
    const pending = cookieHeader(await t.signIn(admin.email, admin.password, ip));
    const bad = await wrongCode(admin.secret);
    for (let i = 0; i < 5; i++) {
      const res = await t.post("/api/auth/two-factor/verify-totp", pending, { code: bad }, ip);
      expect(res.statusCode).toBe(401);
    }
    // A right code no longer helps this attempt (and stays usable: a refused code is not spent).
    const code = await totpCode(admin.secret);
    const locked = await t.post("/api/auth/two-factor/verify-totp", pending, { code }, ip);
    expect(locked.statusCode).toBe(400);
    expect(locked.json()).toMatchObject({ code: "TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE" });
    // A fresh sign-in with that same code works (the account lock needs 10 in a row).
    const fresh = cookieHeader(await t.signIn(admin.email, admin.password, ip));
    const signedIn = await t.post("/api/auth/two-factor/verify-totp", fresh, { code }, ip);
    expect(signedIn.statusCode).toBe(200);
  });

  it("accepts each backup code once", async () => {
    const code = admin.backupCodes[0]!;
    const first = cookieHeader(await t.signIn(admin.email, admin.password, "10.3.0.3"));
    const used = await t.post("/api/auth/two-factor/verify-backup-code", first, { code }, "10.3.0.3");
    expect(used.statusCode).toBe(200);
    expect((await get("/api/admin/workbooks", cookieHeader(used))).statusCode).toBe(200);

    const second = cookieHeader(await t.signIn(admin.email, admin.password, "10.3.0.3"));
    const reused = await t.post("/api/auth/two-factor/verify-backup-code", second, { code }, "10.3.0.3");
    expect(reused.statusCode).toBe(401);
    expect(reused.json()).toMatchObject({ code: "INVALID_BACKUP_CODE" });
    const other = await t.post(
      "/api/auth/two-factor/verify-backup-code",
      second,
      { code: admin.backupCodes[1]! },
      "10.3.0.3",
    );
    expect(other.statusCode).toBe(200);
  });

  it("still asks for the code after a password reset", async () => {
    const requested = await t.app.inject({
      method: "POST",
      url: "/api/auth/request-password-reset",
      headers: { origin: ORIGIN, "content-type": "application/json" },
      payload: { email: admin.email, redirectTo: "/reset-password" },
    });
    expect(requested.statusCode).toBe(200);
    const mail = await smtp.nextMailTo(admin.email);
    const link = new URL(mail.text.match(/https?:\/\/\S+/)![0]);
    const landing = await t.app.inject({ method: "GET", url: link.pathname + link.search });
    const token = new URL(landing.headers.location!, ORIGIN).searchParams.get("token")!;
    const newPassword = "a-fresh-reset-passphrase-77";
    const reset = await t.app.inject({
      method: "POST",
      url: "/api/auth/reset-password",
      headers: { origin: ORIGIN, "content-type": "application/json" },
      payload: { newPassword, token },
    });
    expect(reset.statusCode).toBe(200);
    // Resetting gives no session, and the next sign-in still stops at the second step.
    expect(cookieHeader(reset)).not.toMatch(/portal\.session_token=[^;]+/);
    const challenge = await t.signIn(admin.email, newPassword, "10.3.0.4");
    expect(challenge.statusCode).toBe(200);
    expect(challenge.json()).toMatchObject({ twoFactorRedirect: true });
    expect((await get("/api/admin/workbooks", cookieHeader(challenge))).statusCode).toBe(401);
    const [row] = await database.db.select().from(users).where(eq(users.email, admin.email));
    expect(row!.twoFactorEnabled).toBe(true);
    admin.password = newPassword;
    expect((await t.sessionCookie(admin.email, newPassword)).length).toBeGreaterThan(0);
  });

  it("cannot be turned off by someone whose role requires it", async () => {
    const cookie = await t.sessionCookie(admin.email, admin.password);
    const res = await t.post("/api/auth/two-factor/disable", cookie, { password: admin.password });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: "MFA_REQUIRED_FOR_ROLE" });
    const [row] = await database.db.select().from(users).where(eq(users.email, admin.email));
    expect(row!.twoFactorEnabled).toBe(true);
    expect(await auditOf(admin.email, ["auth.mfa.disabled"])).toEqual(["auth.mfa.disabled:denied"]);
  });
});

describe("optional for other roles", () => {
  it("a client may turn it on and, with the password, off again", async () => {
    const { email, password } = await t.createUser("client");
    const cookie = await t.sessionCookie(email, password);
    const { cookie: enrolled } = await t.enrolTwoFactor(email, password, cookie);
    expect((await get("/api/auth/get-session", enrolled)).json()).toMatchObject({
      user: { twoFactorEnabled: true },
    });
    // Signing in now takes the code.
    expect((await t.signIn(email, password, "10.4.0.1")).json()).toMatchObject({ twoFactorRedirect: true });

    const wrong = await t.post("/api/auth/two-factor/disable", enrolled, { password: "not-the-password-9" });
    expect(wrong.statusCode).toBe(400);
    const off = await t.post("/api/auth/two-factor/disable", enrolled, { password });
    expect(off.statusCode).toBe(200);
    expect((await get("/api/auth/get-session", cookieHeader(off))).json()).toMatchObject({
      user: { twoFactorEnabled: false },
    });
    const plain = await t.signIn(email, password, "10.4.0.2");
    expect(plain.json()).not.toHaveProperty("twoFactorRedirect");
    expect(await auditOf(email, ["auth.mfa.enabled", "auth.mfa.disabled"])).toEqual([
      "auth.mfa.enabled:success",
      "auth.mfa.disabled:failure",
      "auth.mfa.disabled:success",
    ]);
  });
});

describe("demo admin", () => {
  it("is set up with the published demo key, so its sign-in takes a code from it", async () => {
    const demo = await seedDemoData(t.auth, database.db);
    const entry = demo.find((d) => d.role === "admin")!;
    expect(entry.totp?.uri).toMatch(/^otpauth:\/\/totp\//);
    expect(entry.totp?.key).toMatch(/^[A-Z2-7]+$/);
    const challenge = await t.signIn(DEMO_ADMIN.email, DEMO_ADMIN.password, "10.5.0.1");
    expect(challenge.json()).toMatchObject({ twoFactorRedirect: true });
    const verified = await t.post(
      "/api/auth/two-factor/verify-totp",
      cookieHeader(challenge),
      { code: await totpCode(DEMO_ADMIN.totpSecret) },
      "10.5.0.1",
    );
    expect(verified.statusCode).toBe(200);
    expect((await get("/api/admin/workbooks", cookieHeader(verified))).statusCode).toBe(200);
    // Seeding again keeps what is there.
    await seedDemoData(t.auth, database.db);
    const rows = await database.db
      .select()
      .from(twoFactors)
      .innerJoin(users, eq(users.id, twoFactors.userId))
      .where(eq(users.email, DEMO_ADMIN.email));
    expect(rows).toHaveLength(1);
  });
});

describe("recovery after a lost authenticator", () => {
  it("removes the enrolment and the sessions; the next sign-in sets it up again", async () => {
    const { email, password, userId } = await t.createUser("admin");
    const enrolled = await t.enrolTwoFactor(email, password, await t.sessionCookie(email, password));

    expect(await resetTwoFactor(database.db, userId, { email: "it@firm.example" })).toBe(true);
    expect(await resetTwoFactor(database.db, userId, { email: "it@firm.example" })).toBe(false);

    expect((await get("/api/auth/get-session", enrolled.cookie)).json()).toBeNull();
    const signedIn = await t.signIn(email, password, "10.3.1.1");
    expect(signedIn.json()).not.toHaveProperty("twoFactorRedirect");
    const admin = await get("/api/admin/workbooks", cookieHeader(signedIn));
    expect(admin.statusCode).toBe(403);
    expect(admin.json()).toMatchObject({ code: "MFA_ENROLLMENT_REQUIRED" });
    // The second reset changed nothing and is on the trail too.
    expect(await auditOf("it@firm.example", ["auth.mfa.reset"])).toEqual([
      "auth.mfa.reset:success",
      "auth.mfa.reset:success",
    ]);
    const [, noOp] = await database.db
      .select({ details: auditLog.details })
      .from(auditLog)
      .where(and(eq(auditLog.actorEmail, "it@firm.example"), eq(auditLog.action, "auth.mfa.reset")))
      .orderBy(auditLog.id);
    expect(noOp!.details).toEqual({ nothingToReset: true });
  });

  it("an admin resets a client's and an employee's two-step verification from the back office", async () => {
    const adminHeaders = await headersFor(t, "admin");
    const post = (url: string) => t.app.inject({ method: "POST", url, headers: adminHeaders });
    const listed = async (list: "clients" | "employees", email: string) =>
      (
        await t.app.inject({ method: "GET", url: `/api/admin/${list}?q=${email}`, headers: adminHeaders })
      ).json()[0];
    const people = [
      { list: "clients" as const, path: "resettwofactorclient", role: "client" as const },
      { list: "employees" as const, path: "resettwofactoremployee", role: "employee" as const },
    ];
    for (const person of people) {
      const id = person.role === "client" ? "c_id" : "e_id";
      const add = await t.app.inject({
        method: "POST",
        url: person.role === "client" ? "/api/admin/addclient" : "/api/admin/addemployee",
        headers: adminHeaders,
        payload:
          person.role === "client"
            ? {
                clientId: "CL-LOST",
                firstName: "Lost",
                lastName: "Phone",
                email: "lost.client@example.com",
                password: "misplaced-device-pass-one",
                role: "client",
                privilege: "View",
                workbookIds: [],
              }
            : {
                employeeId: "EM-LOST",
                firstName: "Lost",
                lastName: "Phone",
                email: "lost.employee@meridian-advisory.example",
                password: "misplaced-device-pass-two",
                role: "employee",
                privilege: "View",
                clientIds: [],
              },
      });
      expect(add.statusCode).toBe(201);
      const record = add.json().data[person.role] as { email: string; c_id?: number; e_id?: number };
      const password = person.role === "client" ? "misplaced-device-pass-one" : "misplaced-device-pass-two";
      const session = await t.sessionCookie(record.email, password);
      const enrolled = await t.enrolTwoFactor(record.email, password, session);
      expect(await listed(person.list, record.email)).toMatchObject({ two_factor_enabled: true });

      const reset = await post(`/api/admin/${person.path}/${record[id]}`);
      expect(reset.statusCode).toBe(200);
      expect(reset.json()).toEqual({
        message: "Two-step verification was reset. They set it up again at their next sign-in.",
        reset: true,
      });
      expect(await listed(person.list, record.email)).toMatchObject({ two_factor_enabled: false });
      expect((await get("/api/auth/get-session", enrolled.cookie)).json()).toBeNull();
      expect((await post(`/api/admin/${person.path}/${record[id]}`)).json()).toEqual({
        message: "Two-step verification is not set up.",
        reset: false,
      });
    }
    const unknown = await post("/api/admin/resettwofactorclient/987654");
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ error: "Client not found." });
  });
});
