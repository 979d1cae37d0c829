import { and, eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "../src/db/client.ts";
import { auditLog, firmPolicies, sessions, users } from "../src/db/schema.ts";
import { cookieHeader, createTestApp, ORIGIN } from "./support/app.ts";
import { createTestDatabase } from "./support/database.ts";
import { startSmtpServer } from "./support/smtp.ts";

/**
 * Six-digit codes by email as the second step (issue 24): off unless the firm allows them, then sent and checked
 * by Better Auth's OTP endpoints inside the account's second-step lock, for signing in and for setting up.
 */
let database: DatabaseHandle;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let t: Awaited<ReturnType<typeof createTestApp>>;

beforeAll(async () => {
  database = await createTestDatabase();
  smtp = await startSmtpServer();
  t = await createTestApp(database, {
    SMTP_URL: smtp.url,
    AUTH_IP_LIMIT_PER_MINUTE: "1000",
    SIGNIN_MAX_FAILURES: "4",
    MFA_REQUIRED_ROLES: "admin",
  });
});
afterAll(async () => {
  await t.app.close();
  await smtp.close();
  await database.close();
});

async function setPolicy(emailCodes: boolean, mfaRequiredRoles: string[] | null = null) {
  await database.db
    .insert(firmPolicies)
    .values({ id: 1, emailCodes, mfaRequiredRoles })
    .onConflictDoUpdate({ target: firmPolicies.id, set: { emailCodes, mfaRequiredRoles } });
  // The policy is read with each principal; a write clears the cached ones, as the admin's save does.
  await t.post("/api/auth/sign-out", "", {});
}

/** The six digits of the next code mailed to `email` (other mail, such as new-device alerts, is skipped). */
async function mailedCode(email: string): Promise<string> {
  for (;;) {
    const mail = await smtp.nextMailTo(email);
    if (/sign-in code/.test(mail.subject)) return /\b(\d{6})\b/.exec(mail.text)![1]!;
  }
}

async function auditOf(userId: string, actions: string[]) {
  const rows = await database.db
    .select({ action: auditLog.action, outcome: auditLog.outcome, details: auditLog.details })
    .from(auditLog)
    .where(and(eq(auditLog.actorUserId, userId), inArray(auditLog.action, actions)))
    .orderBy(auditLog.id);
  return rows.map(
    (r) => `${r.action}:${r.outcome}:${(r.details as { method?: string } | null)?.method ?? ""}`,
  );
}

/** A client with an authenticator app, at the second step of a password sign-in (its pending-step cookie). */
async function atSecondStep() {
  const person = await t.createUser("client");
  const cookie = await t.sessionCookie(person.email, person.password);
  await t.enrolTwoFactor(person.email, person.password, cookie);
  const step = await t.signIn(person.email, person.password);
  expect(step.json()).toMatchObject({ twoFactorRedirect: true });
  // The second step's methods say whether a code by email is on offer (the firm's policy).
  const { emailCodes } = (await t.app.inject({ method: "GET", url: "/api/config" })).json() as {
    emailCodes: boolean;
  };
  expect(step.json()).toMatchObject({ twoFactorMethods: emailCodes ? ["totp", "otp"] : ["totp"] });
  return { ...person, pending: cookieHeader(step) };
}

describe("codes by email", () => {
  it("are refused while the firm does not allow them", async () => {
    await setPolicy(false);
    const { pending } = await atSecondStep();
    const sent = await t.post("/api/auth/two-factor/send-otp", pending, {});
    expect(sent.statusCode).toBe(403);
    expect(sent.json()).toMatchObject({ code: "EMAIL_CODES_OFF" });
    const verified = await t.post("/api/auth/two-factor/verify-otp", pending, { code: "123456" });
    expect(verified.statusCode).toBe(403);
  });

  it("sign a person in once, within the same lock as other codes, and are audited", async () => {
    await setPolicy(true);
    const { pending, email, userId } = await atSecondStep();
    expect((await t.post("/api/auth/two-factor/send-otp", pending, {})).statusCode).toBe(200);
    const code = await mailedCode(email);
    const wrong = code === "000000" ? "111111" : "000000";
    const refused = await t.post("/api/auth/two-factor/verify-otp", pending, { code: wrong });
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toMatchObject({ code: "INVALID_CODE" });

    const verified = await t.post("/api/auth/two-factor/verify-otp", pending, { code });
    expect(verified.statusCode).toBe(200);
    const cookie = cookieHeader(verified);
    expect(
      (await t.app.inject({ method: "GET", url: "/api/me/workbooks", headers: { cookie, origin: ORIGIN } }))
        .statusCode,
    ).toBe(200);
    const methods = await database.db
      .select({ method: sessions.signInMethod })
      .from(sessions)
      .where(eq(sessions.userId, userId));
    expect(methods.map((m) => m.method)).toContain("code");
    // The same code again (the pending step is over as well): nothing.
    expect((await t.post("/api/auth/two-factor/verify-otp", pending, { code })).statusCode).toBe(401);
    expect(await auditOf(userId, ["auth.mfa.code_sent", "auth.mfa.verify"])).toEqual([
      "auth.mfa.code_sent:success:email",
      "auth.mfa.verify:failure:email_code",
      "auth.mfa.verify:success:email_code",
    ]);
  });

  it("count in the account's second-step lock: sent codes and wrong guesses, then 429 until the window ends", async () => {
    await setPolicy(true);
    const { pending, email } = await atSecondStep();
    expect((await t.post("/api/auth/two-factor/send-otp", pending, {})).statusCode).toBe(200);
    await mailedCode(email);
    const answers: number[] = [];
    for (let i = 0; i < 4; i++) {
      answers.push((await t.post("/api/auth/two-factor/verify-otp", pending, { code: "000001" })).statusCode);
    }
    expect(answers.at(-1)).toBe(429);
    const more = await t.post("/api/auth/two-factor/send-otp", pending, {});
    expect(more.statusCode).toBe(429);
    expect(more.headers["retry-after"]).toBeDefined();
  });

  it("set up two-step verification for someone without an authenticator app, after their password", async () => {
    await setPolicy(true, ["client"]);
    const { email, password, userId } = await t.createUser("client");
    const cookie = await t.sessionCookie(email, password);
    const blocked = await t.app.inject({
      method: "GET",
      url: "/api/me/workbooks",
      headers: { cookie, origin: ORIGIN },
    });
    expect(blocked.json()).toMatchObject({ code: "MFA_ENROLLMENT_REQUIRED" });
    // Not before the password was confirmed.
    const early = await t.post("/api/auth/two-factor/send-otp", cookie, {});
    expect(early.json()).toMatchObject({ code: "EMAIL_CODE_NOT_NEEDED" });

    const enabled = await t.post("/api/auth/two-factor/enable", cookie, { password });
    expect(enabled.statusCode).toBe(200);
    expect((enabled.json() as { backupCodes: string[] }).backupCodes).toHaveLength(10);
    expect((await t.post("/api/auth/two-factor/send-otp", cookie, {})).statusCode).toBe(200);
    const confirmed = await t.post("/api/auth/two-factor/verify-otp", cookie, {
      code: await mailedCode(email),
    });
    expect(confirmed.statusCode).toBe(200);
    const [user] = await database.db.select().from(users).where(eq(users.id, userId));
    expect(user!.twoFactorEnabled).toBe(true);
    const ready = await t.app.inject({
      method: "GET",
      url: "/api/me/workbooks",
      headers: { cookie: cookieHeader(confirmed), origin: ORIGIN },
    });
    expect(ready.statusCode).toBe(200);

    // From now on a password sign-in asks for the second step, and a code by email completes it.
    const step = await t.signIn(email, password);
    expect(step.json()).toMatchObject({ twoFactorRedirect: true });
    expect((await t.post("/api/auth/two-factor/send-otp", cookieHeader(step), {})).statusCode).toBe(200);
    const signedIn = await t.post("/api/auth/two-factor/verify-otp", cookieHeader(step), {
      code: await mailedCode(email),
    });
    expect(signedIn.statusCode).toBe(200);
    await setPolicy(false);
  });
});
