import { randomBytes, randomUUID } from "node:crypto";
import { mkdtempSync, mkdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { NOT_ME_LINK_INCOMPLETE } from "@portal/contracts";
import { sql, type SQL } from "drizzle-orm";
import type { LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../src/app.ts";
import type { DatabaseHandle } from "../src/db/client.ts";
import { DEVICE_COOKIE_MAX_AGE_SECONDS, notMeIdentifier } from "../src/signin/new-device.ts";
import { createTestApp, ORIGIN, totpCode } from "./support/app.ts";
import { createTestDatabase } from "./support/database.ts";
import { freePort } from "./support/net.ts";
import { startPrivateRedis, type PrivateRedis } from "./support/private-redis.ts";
import { startSmtpServer, type ReceivedMail } from "./support/smtp.ts";

/**
 * The new-device alert and "This wasn't me" (issue 24, build point 4): two portal instances on one database and
 * a private Redis (so an ending on one is seen on the other), mail through a real SMTP server.
 */
const CHROME_WINDOWS =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
const SAFARI_IPHONE =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1";
const FIREFOX_MAC = "Mozilla/5.0 (Macintosh; Intel Mac OS X 10.15; rv:133.0) Gecko/20100101 Firefox/133.0";

let database: DatabaseHandle;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let redis: PrivateRedis | undefined;
let a: Awaited<ReturnType<typeof createTestApp>>;
let b: Awaited<ReturnType<typeof createTestApp>>;
type TestApp = typeof a;

async function waitFor(check: () => Promise<boolean>, what: string, ms = 10_000) {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`${what}: not within ${ms} ms`);
}

beforeAll(async () => {
  redis = await startPrivateRedis();
  database = await createTestDatabase();
  smtp = await startSmtpServer();
  const env = {
    SMTP_URL: smtp.url,
    REDIS_URL: redis.url,
    REDIS_KEY_PREFIX: `test-${randomUUID()}:`,
    // Long enough that only an invalidation, never the time to live, explains a refusal below.
    ACCESS_CACHE_SECONDS: "60",
    AUTH_IP_LIMIT_PER_MINUTE: "10000",
  };
  a = await createTestApp(database, env);
  b = await createTestApp(database, env);
}, 60_000);

afterAll(async () => {
  await a?.app.close();
  await b?.app.close();
  await database?.close();
  await smtp?.close();
  await redis?.close();
});

const query = async <T>(statement: SQL) =>
  ((await database.db.execute(statement)) as unknown as { rows: T[] }).rows;

const setCookies = (res: LightMyRequestResponse): string[] => {
  const raw = res.headers["set-cookie"];
  return Array.isArray(raw) ? raw : raw ? [raw] : [];
};
const deviceCookieOf = (res: LightMyRequestResponse) => setCookies(res).find((c) => /portal_device=/.test(c));

/** One browser: its cookies (kept as a browser keeps them), user agent and address. */
class Browser {
  readonly jar = new Map<string, string>();
  constructor(
    readonly userAgent: string,
    readonly ip: string,
  ) {}

  headers(): Record<string, string> {
    const cookie = [...this.jar].map(([name, value]) => `${name}=${value}`).join("; ");
    return { origin: ORIGIN, "user-agent": this.userAgent, ...(cookie ? { cookie } : {}) };
  }

  keep(res: LightMyRequestResponse) {
    for (const raw of setCookies(res)) {
      const [pair = ""] = raw.split(";");
      const at = pair.indexOf("=");
      const name = pair.slice(0, at).trim();
      const value = pair.slice(at + 1);
      if (/max-age=0(;|$)/i.test(raw) || value === "") this.jar.delete(name);
      else this.jar.set(name, value);
    }
    return res;
  }

  async post(t: TestApp, url: string, payload: Record<string, unknown>) {
    const res = await t.app.inject({
      method: "POST",
      url,
      headers: { ...this.headers(), "content-type": "application/json" },
      remoteAddress: this.ip,
      payload,
    });
    return this.keep(res);
  }

  signIn(t: TestApp, person: { email: string; password: string }) {
    return this.post(t, "/api/auth/sign-in/email", { email: person.email, password: person.password });
  }

  /** What the portal's API answers this browser now: 200, or 401 once its session has ended. */
  async apiStatus(t: TestApp) {
    return (await t.app.inject({ method: "GET", url: "/api/me/sessions", headers: this.headers() }))
      .statusCode;
  }
}

let ipCounter = 0;
const browser = (userAgent: string) =>
  new Browser(userAgent, `10.60.${Math.floor(ipCounter / 250)}.${++ipCounter % 250}`);

/** A person whose first browser (the laptop) has signed in: the account knows one browser. */
async function personWithLaptop() {
  const person = await a.createUser("client");
  const laptop = browser(CHROME_WINDOWS);
  expect((await laptop.signIn(a, person)).statusCode).toBe(200);
  return { person, laptop };
}

const alerts = (userId: string) =>
  query<{ details: Record<string, unknown>; ip: string | null }>(
    sql`select details, ip from audit_log where action = 'auth.new_device' and actor_user_id = ${userId} order by id`,
  );
const devices = (userId: string) =>
  query<{ device_id: string; user_agent: string | null }>(
    sql`select device_id, user_agent from known_devices where user_id = ${userId} order by created_at`,
  );
const mailsTo = (email: string) => smtp.received.filter((m) => m.to === email.toLowerCase());

/**
 * The mails the person has been sent once `expected` new-device mails have arrived. Alert mail goes out only
 * after its audit row is written, so counting audit rows first and then the mails that arrived proves none is
 * still on its way.
 */
async function alertMailsOnceArrived(person: { email: string; userId: string }, expected: number) {
  expect(await alerts(person.userId)).toHaveLength(expected);
  await waitFor(
    async () => mailsTo(person.email).filter(isAlert).length >= expected,
    `${expected} alert mails to ${person.email}`,
  );
  return mailsTo(person.email).filter(isAlert);
}
const isAlert = (mail: ReceivedMail) => mail.subject.startsWith("New sign-in to your");
const isReset = (mail: ReceivedMail) => mail.subject === "Reset your Meridian Tax & Wealth portal password";
const linkIn = (mail: ReceivedMail) => mail.text.match(/https?:\/\/\S+\/not-me\?token=\S+/)?.[0];
const tokenIn = (mail: ReceivedMail) => new URL(linkIn(mail)!).searchParams.get("token")!;

const notMe = (t: TestApp, token: unknown, ip = "10.61.0.1") =>
  t.app.inject({
    method: "POST",
    url: "/api/auth-alerts/not-me",
    headers: { origin: ORIGIN, "content-type": "application/json" },
    remoteAddress: ip,
    payload: { token },
  });

describe("the browser's cookie", () => {
  it("is set at the first sign-in (signed, HttpOnly, SameSite=Lax, 400 days), and that sign-in mails nobody", async () => {
    const { person, laptop } = await personWithLaptop();
    const again = await laptop.signIn(a, person);
    expect(again.statusCode).toBe(200);
    const cookie = deviceCookieOf(again)!;
    // The id, a dot and its HMAC-SHA256 (base64, URL-encoded).
    expect(cookie).toMatch(/^portal_device=[A-Za-z0-9_-]{22}\.[A-Za-z0-9%]{44,60};/);
    expect(cookie).toContain(`Max-Age=${DEVICE_COOKIE_MAX_AGE_SECONDS}`);
    expect(cookie).toContain("Path=/");
    expect(cookie).toContain("HttpOnly");
    expect(cookie).toContain("SameSite=Lax");
    // PUBLIC_URL is http here (the https case: below).
    expect(cookie).not.toContain("Secure");
    // The same browser keeps its id; the account knows one browser and nobody was told.
    expect(await devices(person.userId)).toEqual([
      { device_id: laptop.jar.get("portal_device")!.split(".")[0], user_agent: CHROME_WINDOWS },
    ]);
    expect(await alerts(person.userId)).toEqual([]);
  });

  it("counts a forged or altered cookie as a new browser", async () => {
    const { person, laptop } = await personWithLaptop();
    const [id, signature] = laptop.jar.get("portal_device")!.split(".") as [string, string];
    const altered = `${signature[0] === "A" ? "B" : "A"}${signature.slice(1)}`;
    for (const forged of [`${id}.${altered}`, id, `${randomBytes(16).toString("base64url")}.${signature}`]) {
      const other = browser(FIREFOX_MAC);
      other.jar.set("portal_device", forged);
      const res = await other.signIn(a, person);
      expect(res.statusCode).toBe(200);
      // A new id, not the laptop's.
      expect(other.jar.get("portal_device")!.split(".")[0]).not.toBe(id);
    }
    expect(await alertMailsOnceArrived(person, 3)).toHaveLength(3);
    expect(await devices(person.userId)).toHaveLength(4);
  });
});

describe("the new-device mail", () => {
  it("goes to the person when a browser the account has not used signs in, once, with time, browser, system, address and the link", async () => {
    const { person, laptop } = await personWithLaptop();
    const phone = browser(SAFARI_IPHONE);
    const before = Date.now();
    expect((await phone.signIn(a, person)).statusCode).toBe(200);

    const [mail] = await alertMailsOnceArrived(person, 1);
    expect(mail!.subject).toBe("New sign-in to your Meridian Tax & Wealth portal account");
    expect(mail!.text).toContain("Browser and system: Safari 18 on iOS 18.1");
    expect(mail!.text).toContain(`IP address: ${phone.ip}`);
    const iso = mail!.text.match(/Time: .+ UTC \((\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ)\)/)?.[1];
    expect(Date.parse(iso!)).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000);
    expect(Date.parse(iso!)).toBeLessThanOrEqual(Date.now());
    expect(linkIn(mail!)).toMatch(new RegExp(`^${ORIGIN}/not-me\\?token=[A-Za-z0-9_-]{43}$`));
    expect(mail!.html).toContain("This wasn&#39;t me");
    expect(await alerts(person.userId)).toEqual([
      { details: { browser: "Safari 18", os: "iOS 18.1", ip: phone.ip }, ip: phone.ip },
    ]);
    // The token is kept only as its hash.
    const [row] = await query<{ value: string }>(
      sql`select value from verifications where identifier = ${notMeIdentifier(tokenIn(mail!))}`,
    );
    expect(JSON.parse(row!.value)).toMatchObject({ userId: person.userId });
    expect(JSON.stringify(await query(sql`select * from verifications`))).not.toContain(tokenIn(mail!));

    // Known browsers, on either instance, mail nobody: the phone again, the laptop again.
    expect((await phone.signIn(b, person)).statusCode).toBe(200);
    expect((await laptop.signIn(a, person)).statusCode).toBe(200);
    expect(await alerts(person.userId)).toHaveLength(1);
    // A third browser is told, and by then nothing else was sent.
    expect((await browser(FIREFOX_MAC).signIn(b, person)).statusCode).toBe(200);
    expect(await alertMailsOnceArrived(person, 2)).toHaveLength(2);
    expect(mailsTo(person.email)).toHaveLength(2);
  });

  it("is sent once when one new browser signs in twice at once", async () => {
    const { person } = await personWithLaptop();
    // A browser another account already used: it has its id, which this account does not know.
    const shared = browser(FIREFOX_MAC);
    const other = await a.createUser("employee");
    expect((await shared.signIn(a, other)).statusCode).toBe(200);
    const id = shared.jar.get("portal_device")!.split(".")[0];

    const answers = await Promise.all([shared.signIn(a, person), shared.signIn(b, person)]);
    expect(answers.map((res) => res.statusCode)).toEqual([200, 200]);
    expect(await alertMailsOnceArrived(person, 1)).toHaveLength(1);
    expect((await devices(person.userId)).map((d) => d.device_id)).toContain(id);
    // One browser for every account on it.
    expect(await devices(other.userId)).toEqual([{ device_id: id, user_agent: FIREFOX_MAC }]);
  });

  it("with two-step verification, follows the code, not the password", async () => {
    const person = await a.createUser("client");
    const laptop = browser(CHROME_WINDOWS);
    await laptop.signIn(a, person);
    await a.enrolTwoFactor(person.email, person.password, laptop.headers().cookie!);
    // Confirming the enrolment made a new session for the laptop, not a sign-in.
    expect(await alerts(person.userId)).toEqual([]);
    expect(await devices(person.userId)).toHaveLength(1);

    const phone = browser(SAFARI_IPHONE);
    const password = await phone.signIn(a, person);
    expect(password.json()).toMatchObject({ twoFactorRedirect: true });
    expect(deviceCookieOf(password)).toBeUndefined();
    expect(await alerts(person.userId)).toEqual([]);

    const code = await phone.post(a, "/api/auth/two-factor/verify-totp", {
      code: await totpCode(a.totpSecrets.get(person.email)!),
    });
    expect(code.statusCode).toBe(200);
    expect(deviceCookieOf(code)).toBeDefined();
    const [mail] = await alertMailsOnceArrived(person, 1);
    expect(mail!.text).toContain("Safari 18 on iOS 18.1");
  });
});

describe("This wasn't me (POST /api/auth-alerts/not-me)", () => {
  it("opening the link changes nothing; the button ends every session, on the other instance too, and mails a reset link that works once", async () => {
    const { person, laptop } = await personWithLaptop();
    const phone = browser(SAFARI_IPHONE);
    await phone.signIn(a, person);
    const [mail] = await alertMailsOnceArrived(person, 1);
    const token = tokenIn(mail!);
    const phoneId = phone.jar.get("portal_device")!.split(".")[0];

    // A mail program's scanner opens the link: the SPA's page, which does nothing by itself.
    const dist = mkdtempSync(path.join(os.tmpdir(), "portal-web-"));
    mkdirSync(path.join(dist, "assets"));
    writeFileSync(
      path.join(dist, "index.html"),
      '<!doctype html><div id="root"></div><script src="/spa"></script>',
    );
    const withPage = await buildApp({ config: a.config, database, webDist: dist, logger: false });
    try {
      const page = await withPage.app.inject({
        method: "GET",
        url: new URL(linkIn(mail!)!).pathname + `?token=${token}`,
      });
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain('<script src="/spa">');
    } finally {
      await withPage.app.close();
    }
    // Both sessions work, and instance b has them in its access cache.
    for (const t of [a, b]) {
      expect(await laptop.apiStatus(t)).toBe(200);
      expect(await phone.apiStatus(t)).toBe(200);
    }

    const res = await notMe(a, token);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ok: true });
    expect(res.headers["cache-control"]).toBe("no-store");
    const endedAt = Date.now();
    await waitFor(
      async () => (await laptop.apiStatus(b)) === 401 && (await phone.apiStatus(b)) === 401,
      "the sessions refused on the other instance",
      1_000,
    );
    expect(Date.now() - endedAt).toBeLessThan(500);
    expect(await laptop.apiStatus(a)).toBe(401);
    expect(await query(sql`select id from sessions where user_id = ${person.userId}`)).toEqual([]);
    const [audit] = await query<{ outcome: string; target_id: string; details: Record<string, unknown> }>(
      sql`select outcome, target_id, details from audit_log where action = 'auth.not_me' and actor_user_id = ${person.userId}`,
    );
    expect(audit).toEqual({
      outcome: "success",
      target_id: person.userId,
      details: { revoked: 2, alertedBrowser: "Safari 18", alertedOs: "iOS 18.1" },
    });
    // The alerted browser is forgotten (a sign-in from it alerts again); the laptop is still known.
    const known = (await devices(person.userId)).map((d) => d.device_id);
    expect(known).not.toContain(phoneId);
    expect(known).toEqual([laptop.jar.get("portal_device")!.split(".")[0]]);

    // The usual reset mail; its link sets a new password once.
    await waitFor(async () => mailsTo(person.email).some(isReset), "the reset mail");
    const reset = mailsTo(person.email).find(isReset)!;
    const link = new URL(reset.text.match(/https?:\/\/\S+\/api\/auth\/reset-password\/\S+/)![0]);
    const landing = await a.app.inject({ method: "GET", url: link.pathname + link.search });
    expect(landing.statusCode).toBe(302);
    const target = new URL(landing.headers.location!, ORIGIN);
    expect(target.pathname).toBe("/reset-password");
    const resetToken = target.searchParams.get("token")!;
    const setPassword = (newPassword: string) =>
      a.app.inject({
        method: "POST",
        url: "/api/auth/reset-password",
        headers: { origin: ORIGIN, "content-type": "application/json" },
        payload: { newPassword, token: resetToken },
      });
    expect((await setPassword("a-fresh-start-passphrase")).statusCode).toBe(200);
    expect((await setPassword("another-start-passphrase")).statusCode).toBe(400);
    expect((await laptop.signIn(a, person)).statusCode).toBe(401);
    const renewed = { email: person.email, password: "a-fresh-start-passphrase" };
    expect((await laptop.signIn(a, renewed)).statusCode).toBe(200);
    expect(await alerts(person.userId)).toHaveLength(1);
    expect((await phone.signIn(b, renewed)).statusCode).toBe(200);
    expect(await alertMailsOnceArrived(person, 2)).toHaveLength(2);

    // The link works once: used again it is refused and ends nothing.
    const reused = await notMe(b, token);
    expect(reused.statusCode).toBe(400);
    expect(reused.json()).toMatchObject({
      code: "NOT_ME_LINK_INVALID",
      error: expect.stringContaining("used already"),
    });
    expect(await laptop.apiStatus(b)).toBe(200);
    expect(await phone.apiStatus(a)).toBe(200);
  });

  it("refuses an incomplete, unknown or expired link with 400 and changes nothing", async () => {
    const { person, laptop } = await personWithLaptop();
    await browser(SAFARI_IPHONE).signIn(a, person);
    const [mail] = await alertMailsOnceArrived(person, 1);
    const token = tokenIn(mail!);
    await database.db.execute(
      sql`update verifications set expires_at = now() - interval '1 second' where identifier = ${notMeIdentifier(token)}`,
    );

    const incomplete = await notMe(a, token.slice(0, 30));
    expect(incomplete.statusCode).toBe(400);
    expect(incomplete.json()).toMatchObject({
      code: "INVALID_INPUT",
      error: expect.stringContaining(NOT_ME_LINK_INCOMPLETE),
    });
    expect((await notMe(a, 42)).statusCode).toBe(400);
    const ip = "10.61.9.9";
    for (const refused of [randomBytes(32).toString("base64url"), token]) {
      const res = await notMe(a, refused, ip);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: "NOT_ME_LINK_INVALID" });
    }
    expect(await laptop.apiStatus(a)).toBe(200);
    expect(await devices(person.userId)).toHaveLength(2);
    expect(
      await query(
        sql`select 1 from audit_log where action = 'auth.not_me' and actor_user_id = ${person.userId}`,
      ),
    ).toEqual([]);
    // The refusals are in the trail, without anyone's name.
    expect(
      await query(
        sql`select outcome, actor_user_id from audit_log where action = 'auth.not_me' and ip = ${ip}`,
      ),
    ).toEqual([
      { outcome: "failure", actor_user_id: null },
      { outcome: "failure", actor_user_id: null },
    ]);

    // The next alert's link is made, and the expired one is cleared away.
    await browser(FIREFOX_MAC).signIn(a, person);
    await alertMailsOnceArrived(person, 2);
    expect(
      await query(sql`select 1 from verifications where identifier = ${notMeIdentifier(token)}`),
    ).toEqual([]);
  });

  it("counts each address's calls like the other public sign-in calls (429 with Retry-After, audited)", async () => {
    const limited = await createTestApp(database, { AUTH_IP_LIMIT_PER_MINUTE: "2" });
    try {
      const ip = "10.62.0.1";
      const token = randomBytes(32).toString("base64url");
      expect((await notMe(limited, token, ip)).statusCode).toBe(400);
      expect((await notMe(limited, token, ip)).statusCode).toBe(400);
      const refused = await notMe(limited, token, ip);
      expect(refused.statusCode).toBe(429);
      expect(refused.json()).toMatchObject({ code: "RATE_LIMITED" });
      expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);
      const audited = await query(
        sql`select 1 from audit_log where action = 'auth.request_refused' and ip = ${ip} and outcome = 'rate_limited'`,
      );
      expect(audited).toHaveLength(1);
    } finally {
      await limited.app.close();
    }
  });
});

describe("on https, and when mail fails", () => {
  it("names the cookie __Host- and marks it Secure; a mail that cannot be sent does not fail the sign-in", async () => {
    const origin = "https://portal.example.test";
    const https = await createTestApp(database, {
      PUBLIC_URL: origin,
      // Nothing listens there: every mail fails.
      SMTP_URL: `smtp://127.0.0.1:${await freePort()}`,
      AUTH_IP_LIMIT_PER_MINUTE: "10000",
    });
    try {
      const person = await https.createUser("client");
      const signIn = (cookie?: string) =>
        https.app.inject({
          method: "POST",
          url: "/api/auth/sign-in/email",
          headers: {
            origin,
            "content-type": "application/json",
            "user-agent": FIREFOX_MAC,
            ...(cookie ? { cookie } : {}),
          },
          remoteAddress: "10.63.0.1",
          payload: { email: person.email, password: person.password },
        });
      const first = await signIn();
      const cookie = deviceCookieOf(first)!;
      expect(cookie).toMatch(/^__Host-portal_device=/);
      expect(cookie).toContain("Secure");
      expect(cookie).toContain("Path=/");
      const device = cookie.split(";")[0]!;
      expect((await signIn(device)).statusCode).toBe(200);
      expect(await alerts(person.userId)).toEqual([]);

      // A new browser: the alert is recorded and its mail fails after the answer, which was a success.
      const other = await signIn();
      expect(other.statusCode).toBe(200);
      expect(await alerts(person.userId)).toHaveLength(1);
      const session = await https.app.inject({
        method: "GET",
        url: "/api/auth/get-session",
        headers: {
          cookie: setCookies(other)
            .map((c) => c.split(";")[0])
            .join("; "),
        },
      });
      expect(session.json()).toMatchObject({ user: { email: person.email } });
    } finally {
      await https.app.close();
    }
  });
});
