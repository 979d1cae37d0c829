import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "../src/db/client.ts";
import { auditLog } from "../src/db/schema.ts";
import { cookieHeader, createTestApp, ORIGIN } from "./support/app.ts";
import { createTestDatabase } from "./support/database.ts";

let database: DatabaseHandle;
let t: Awaited<ReturnType<typeof createTestApp>>;

beforeAll(async () => {
  database = await createTestDatabase();
  // The defaults (10 per 15 minutes, 100 per hour); the per-IP limit is lifted so it does not interfere.
  t = await createTestApp(database, { AUTH_IP_LIMIT_PER_MINUTE: "100000" });
});
afterAll(async () => {
  await t.app.close();
  await database.close();
});

let ipCounter = 0;
const nextIp = () => `198.51.100.${(ipCounter++ % 250) + 1}`;

function formSignIn(email: string, password: string, ip = nextIp()) {
  return t.app.inject({
    method: "POST",
    url: "/api/auth/sign-in/email",
    headers: { origin: ORIGIN, "content-type": "application/x-www-form-urlencoded" },
    remoteAddress: ip,
    payload: new URLSearchParams({ email, password }).toString(),
  });
}

async function signInAudit(email: string) {
  const rows = await database.db
    .select({ outcome: auditLog.outcome })
    .from(auditLog)
    .where(and(eq(auditLog.actorEmail, email), eq(auditLog.action, "auth.sign_in")))
    .orderBy(auditLog.id);
  return rows.map((r) => r.outcome);
}

describe("per-account sign-in limit", () => {
  it("counts form-encoded guesses like JSON ones, audits each, and locks the account for both", async () => {
    const { email, password } = await t.createUser("client");
    for (let i = 0; i < 5; i++) expect((await formSignIn(email, `wrong-form-${i}`)).statusCode).toBe(401);
    for (let i = 0; i < 5; i++)
      expect((await t.signIn(email, `wrong-json-${i}`, nextIp())).statusCode).toBe(401);

    const form = await formSignIn(email, password);
    expect(form.statusCode).toBe(429);
    expect(Number(form.headers["retry-after"])).toBeGreaterThan(800);
    expect(form.json()).toMatchObject({
      code: "TOO_MANY_FAILED_ATTEMPTS",
      error: expect.stringMatching(
        /^Too many failed sign-in attempts for this account\. Try again in \d+ seconds/,
      ),
      requestId: expect.any(String),
    });
    expect((await t.signIn(email, password, nextIp())).statusCode).toBe(429);
    expect(await signInAudit(email)).toEqual([
      ...Array<string>(10).fill("failure"),
      "rate_limited",
      "rate_limited",
    ]);
  });

  it("counts the address as Better Auth matches it: other letter case is the same account", async () => {
    const { email, password } = await t.createUser("client");
    for (let i = 0; i < 10; i++) {
      const spelled = i % 2 ? email.toUpperCase() : email;
      expect((await formSignIn(spelled, `wrong-${i}`)).statusCode).toBe(401);
    }
    expect((await t.signIn(email, password, nextIp())).statusCode).toBe(429);
  });

  it("evaluates at most 10 of 30 parallel wrong guesses; the rest are refused before the password check", async () => {
    const { email } = await t.createUser("client");
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        i % 2 ? formSignIn(email, `parallel-${i}`) : t.signIn(email, `parallel-${i}`, nextIp()),
      ),
    );
    const statuses = answers.map((a) => a.statusCode);
    expect(statuses.filter((s) => s === 401)).toHaveLength(10);
    expect(statuses.filter((s) => s === 429)).toHaveLength(20);
  });

  it("clears the count on a successful sign-in", async () => {
    const { email, password } = await t.createUser("client");
    for (let i = 0; i < 9; i++) await t.signIn(email, `wrong-${i}`, nextIp());
    expect((await t.signIn(email, password, nextIp())).statusCode).toBe(200);
    for (let i = 0; i < 9; i++) expect((await t.signIn(email, `again-${i}`, nextIp())).statusCode).toBe(401);
    expect((await t.signIn(email, password, nextIp())).statusCode).toBe(200);
  });

  it("refuses the 101st failure within an hour even when the short window allows it", async () => {
    const hourly = await createTestApp(database, {
      AUTH_IP_LIMIT_PER_MINUTE: "100000",
      SIGNIN_MAX_FAILURES: "1000",
    });
    try {
      const { email, password } = await hourly.createUser("client");
      const guesses = await Promise.all(
        Array.from({ length: 100 }, (_, i) => hourly.signIn(email, `hourly-${i}`, nextIp())),
      );
      expect(guesses.every((g) => g.statusCode === 401)).toBe(true);
      const refused = await hourly.signIn(email, `hourly-101`, nextIp());
      expect(refused.statusCode).toBe(429);
      expect(Number(refused.headers["retry-after"])).toBeGreaterThan(3000);
      expect((await hourly.signIn(email, password, nextIp())).statusCode).toBe(429);
    } finally {
      await hourly.app.close();
    }
  });

  it("keeps the count in the database, so a second instance on it sees the same lock", async () => {
    const second = await createTestApp(database, { AUTH_IP_LIMIT_PER_MINUTE: "100000" });
    try {
      const { email, password } = await t.createUser("client");
      for (let i = 0; i < 10; i++) {
        const instance = i % 2 ? second : t;
        expect((await instance.signIn(email, `split-${i}`, nextIp())).statusCode).toBe(401);
      }
      expect((await second.signIn(email, password, nextIp())).statusCode).toBe(429);
      expect((await t.signIn(email, password, nextIp())).statusCode).toBe(429);
      const counted = await database.db.execute(
        sql`select count(*)::int as n from limiter_counters where key like ${"%" + email}`,
      );
      expect((counted as unknown as { rows: { n: number }[] }).rows[0]!.n).toBe(2);
    } finally {
      await second.app.close();
    }
  });

  it("ends the lock with a password reset", async () => {
    const { email } = await t.createUser("client");
    for (let i = 0; i < 10; i++) await t.signIn(email, `wrong-${i}`, nextIp());
    expect((await t.signIn(email, "anything-at-all-1", nextIp())).statusCode).toBe(429);

    const token = await t.resetTokenFor(email);
    const reset = await t.post("/api/auth/reset-password", "", {
      token,
      newPassword: "a-brand-new-ledger-passphrase",
    });
    expect(reset.statusCode).toBe(200);
    expect((await t.signIn(email, "a-brand-new-ledger-passphrase", nextIp())).statusCode).toBe(200);
  });
});

describe("per-account second-step limit", () => {
  it("evaluates at most 10 of 30 parallel wrong codes for one account", async () => {
    const { email, password } = await t.createUser("client");
    await t.enrolTwoFactor(email, password, await t.sessionCookie(email, password));
    // Five wrong codes end a sign-in step (Better Auth), so the guesses come from several open steps.
    const steps = await Promise.all(
      Array.from({ length: 6 }, async () => cookieHeader(await t.signIn(email, password, nextIp()))),
    );
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        t.post("/api/auth/two-factor/verify-backup-code", steps[i % steps.length]!, {
          code: `WRONG-${String(i).padStart(4, "0")}`,
        }),
      ),
    );
    const statuses = answers.map((a) => a.statusCode);
    expect(statuses.filter((s) => s === 429)).toHaveLength(20);
    expect(statuses.filter((s) => s !== 429).every((s) => s === 401 || s === 400)).toBe(true);
    const limited = answers.find((a) => a.statusCode === 429)!;
    expect(limited.json()).toMatchObject({ code: "TOO_MANY_FAILED_ATTEMPTS" });
    expect(Number(limited.headers["retry-after"])).toBeGreaterThan(0);
  });
});
