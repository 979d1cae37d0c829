import { ZSessionSchema } from "@portal/contracts";
import { sql, type SQL } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "../src/db/client.ts";
import { inAuthTransaction } from "../src/sessions/sessions.ts";
import { describeUserAgent } from "../src/sessions/user-agent.ts";
import { cookieHeader, createTestApp, headersFor, ORIGIN } from "./support/app.ts";
import { createTestDatabase } from "./support/database.ts";

const CHROME_WINDOWS =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
const SAFARI_IPHONE =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1";
const FIREFOX_MAC = "Mozilla/5.0 (Macintosh; Intel Mac OS X 10.15; rv:133.0) Gecko/20100101 Firefox/133.0";

let database: DatabaseHandle;
let t: Awaited<ReturnType<typeof createTestApp>>;
let adminHeaders: Record<string, string>;

beforeAll(async () => {
  database = await createTestDatabase();
  // The access cache is on (its default), so "refused at once" also proves the cache is dropped.
  t = await createTestApp(database, { AUTH_IP_LIMIT_PER_MINUTE: "10000", ACCESS_CACHE_SECONDS: "30" });
  adminHeaders = await headersFor(t, "admin");
});
afterAll(async () => {
  await t.app.close();
  await database.close();
});

const query = async <T>(statement: SQL) =>
  ((await database.db.execute(statement)) as unknown as { rows: T[] }).rows;

/** Signs in from a browser (its user agent and address) and answers the session cookie. */
async function signInFrom(email: string, password: string, userAgent: string, ip: string) {
  const res = await t.app.inject({
    method: "POST",
    url: "/api/auth/sign-in/email",
    headers: { origin: ORIGIN, "content-type": "application/json", "user-agent": userAgent },
    remoteAddress: ip,
    payload: { email, password },
  });
  expect(res.statusCode).toBe(200);
  return cookieHeader(res);
}

const as = (cookie: string) => ({ cookie, origin: ORIGIN });
const list = (cookie: string) =>
  t.app.inject({ method: "GET", url: "/api/me/sessions", headers: as(cookie) });
const revoke = (cookie: string, id: string) =>
  t.app.inject({ method: "DELETE", url: `/api/me/sessions/${id}`, headers: as(cookie) });
const revokeOthers = (cookie: string) =>
  t.app.inject({ method: "POST", url: "/api/me/sessions/revoke-others", headers: as(cookie) });
const sessionIdsOf = async (userId: string) =>
  (
    await query<{ id: string }>(sql`select id from sessions where user_id = ${userId} order by created_at`)
  ).map((r) => r.id);
const auditRows = (action: string, targetId: string) =>
  query<{ outcome: string; actor_email: string; details: Record<string, unknown> | null }>(
    sql`select outcome, actor_email, details from audit_log where action = ${action} and target_id = ${targetId} order by id`,
  );

describe("a person's own sessions (GET /api/me/sessions)", () => {
  it("lists only the person's live sessions, this device first, with browser, system and address but no token", async () => {
    const me = await t.createUser("client");
    const other = await t.createUser("client");
    const laptop = await signInFrom(me.email, me.password, CHROME_WINDOWS, "10.20.0.1");
    await signInFrom(me.email, me.password, SAFARI_IPHONE, "10.20.0.2");
    await signInFrom(other.email, other.password, FIREFOX_MAC, "10.20.0.3");
    // An ended session is not listed.
    const expired = await signInFrom(me.email, me.password, FIREFOX_MAC, "10.20.0.4");
    const [mine, , expiredId] = await sessionIdsOf(me.userId);
    await database.db.execute(
      sql`update sessions set expires_at = now() - interval '1 minute' where id = ${expiredId!}`,
    );
    expect((await list(expired)).statusCode).toBe(401);

    const res = await list(laptop);
    expect(res.statusCode).toBe(200);
    const sessions = res.json() as unknown[];
    expect(sessions).toHaveLength(2);
    for (const s of sessions)
      expect(Object.keys(ZSessionSchema.parse(s)).sort()).toEqual(Object.keys(s as object).sort());
    expect(sessions).toEqual([
      expect.objectContaining({
        id: mine,
        current: true,
        browser: "Chrome 131",
        os: "Windows 10",
        device: "desktop",
        ip: "10.20.0.1",
      }),
      expect.objectContaining({
        current: false,
        browser: "Safari 18",
        os: "iOS 18.1",
        device: "mobile",
        ip: "10.20.0.2",
      }),
    ]);
    const first = sessions[0] as { signed_in_at: string; last_active_at: string; expires_at: string };
    expect(Date.parse(first.signed_in_at)).toBeGreaterThan(Date.now() - 60_000);
    // The absolute lifetime (Better Auth stamps both times a moment apart).
    const lifetime = Date.parse(first.expires_at) - Date.parse(first.signed_in_at);
    expect(Math.abs(lifetime - t.config.sessionMaxAgeSeconds * 1000)).toBeLessThan(1000);
    // No token of any session, the person's own or another's, is in the answer.
    const tokens = await query<{ token: string }>(sql`select token from sessions`);
    expect(tokens.length).toBeGreaterThan(3);
    for (const { token } of tokens) expect(res.body).not.toContain(token);
    expect(res.body).not.toContain(other.userId);
  });

  it("keeps Better Auth's session endpoints, which answer tokens and skip the audit trail, closed", async () => {
    const me = await t.createUser("client");
    const cookie = await signInFrom(me.email, me.password, CHROME_WINDOWS, "10.21.0.1");
    for (const [method, path] of [
      ["GET", "/api/auth/list-sessions"],
      ["POST", "/api/auth/revoke-session"],
      ["POST", "/api/auth/revoke-sessions"],
      ["POST", "/api/auth/revoke-other-sessions"],
    ] as const) {
      const res = await t.app.inject({
        method,
        url: path,
        headers: { ...as(cookie), ...(method === "POST" ? { "content-type": "application/json" } : {}) },
        ...(method === "POST" ? { payload: { token: "x" } } : {}),
      });
      expect(res.statusCode, path).toBe(404);
    }
    expect((await list(cookie)).statusCode).toBe(200);
  });

  it("answers 401 without a session", async () => {
    const res = await t.app.inject({ method: "GET", url: "/api/me/sessions", headers: { origin: ORIGIN } });
    expect(res.statusCode).toBe(401);
  });

  it("notes the last activity at most once a minute per session (no write per request)", async () => {
    const me = await t.createUser("employee");
    const cookie = await signInFrom(me.email, me.password, CHROME_WINDOWS, "10.22.0.1");
    const [id] = await sessionIdsOf(me.userId);
    const anHourAgo = sql`now() - interval '1 hour'`;
    await database.db.execute(sql`update sessions set updated_at = ${anHourAgo} where id = ${id!}`);
    const lastActive = async () =>
      Date.parse(((await list(cookie)).json() as { last_active_at: string }[])[0]!.last_active_at);
    expect(await lastActive()).toBeGreaterThan(Date.now() - 60_000);
    // Set back again: the next request within the minute writes nothing, so the list still says an hour ago.
    await database.db.execute(sql`update sessions set updated_at = ${anHourAgo} where id = ${id!}`);
    expect(await lastActive()).toBeLessThan(Date.now() - 59 * 60_000);
  });
});

describe("Sign out (DELETE /api/me/sessions/{id})", () => {
  it("ends that session, which is refused at once on its next request, and audits it", async () => {
    const me = await t.createUser("client");
    const here = await signInFrom(me.email, me.password, CHROME_WINDOWS, "10.30.0.1");
    const phone = await signInFrom(me.email, me.password, SAFARI_IPHONE, "10.30.0.2");
    const [, phoneId] = await sessionIdsOf(me.userId);
    // The phone's principal is in the access cache now.
    expect((await list(phone)).statusCode).toBe(200);
    expect(
      (await t.app.inject({ method: "GET", url: "/api/me/workbooks", headers: as(phone) })).statusCode,
    ).toBe(200);

    const res = await revoke(here, phoneId!);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: "Signed out of that session.", revoked: 1 });

    expect(
      (await t.app.inject({ method: "GET", url: "/api/me/workbooks", headers: as(phone) })).statusCode,
    ).toBe(401);
    expect((await list(phone)).statusCode).toBe(401);
    expect(
      (await t.app.inject({ method: "GET", url: "/api/auth/get-session", headers: as(phone) })).json(),
    ).toBeNull();
    const still = await list(here);
    expect(still.statusCode).toBe(200);
    expect((still.json() as { id: string }[]).map((s) => s.id)).not.toContain(phoneId);
    expect(await auditRows("session.revoked", phoneId!)).toEqual([
      {
        outcome: "success",
        actor_email: me.email,
        details: expect.objectContaining({ current: false, browser: "Safari 18", sessionIp: "10.30.0.2" }),
      },
    ]);
    // A second sign-out of the same session: it has ended already.
    expect((await revoke(here, phoneId!)).statusCode).toBe(404);
  });

  it("answers 404 for another person's session and changes nothing (the attempt is audited as denied)", async () => {
    const me = await t.createUser("client");
    const other = await t.createUser("employee");
    const mine = await signInFrom(me.email, me.password, CHROME_WINDOWS, "10.31.0.1");
    const theirs = await signInFrom(other.email, other.password, FIREFOX_MAC, "10.31.0.2");
    const [theirId] = await sessionIdsOf(other.userId);
    expect((await list(theirs)).statusCode).toBe(200);

    const res = await revoke(mine, theirId!);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ error: "This session is not signed in any more.", code: "NOT_FOUND" });
    expect(await sessionIdsOf(other.userId)).toEqual([theirId]);
    expect((await list(theirs)).statusCode).toBe(200);
    expect(await auditRows("session.revoked", theirId!)).toEqual([
      { outcome: "denied", actor_email: me.email, details: null },
    ]);
    // A well-formed id of no session at all: the same answer.
    expect((await revoke(mine, crypto.randomUUID())).statusCode).toBe(404);
  });

  it.each([
    ["not-a-session", "not a UUID"],
    ["1", "a number"],
    [`${"a".repeat(36)}`, "36 letters"],
  ])("answers a readable 400 for the id %s (%s)", async (id) => {
    const me = await t.createUser("client");
    const cookie = await signInFrom(me.email, me.password, CHROME_WINDOWS, "10.32.0.1");
    const res = await revoke(cookie, id);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      error: "id must be the id of one of your sessions.",
      code: "INVALID_INPUT",
    });
    expect(await sessionIdsOf(me.userId)).toHaveLength(1);
  });

  it("stops a bearer token of the ended session too", async () => {
    const me = await t.createUser("client");
    const here = await signInFrom(me.email, me.password, CHROME_WINDOWS, "10.33.0.1");
    const there = await signInFrom(me.email, me.password, FIREFOX_MAC, "10.33.0.2");
    const jwt = await t.jwtFor(there);
    const bearer = () =>
      t.app.inject({ method: "GET", url: "/api/me/sessions", headers: { authorization: `Bearer ${jwt}` } });
    const before = await bearer();
    expect(before.statusCode).toBe(200);
    const current = (before.json() as { id: string; current: boolean }[]).find((s) => s.current)!;
    expect((await revoke(here, current.id)).statusCode).toBe(200);
    expect((await bearer()).statusCode).toBe(401);
  });
});

describe("Sign out of all other sessions (POST /api/me/sessions/revoke-others)", () => {
  it("ends every other session of the person at once, keeps this one and other people's, and audits it", async () => {
    const me = await t.createUser("employee");
    const other = await t.createUser("employee");
    const here = await signInFrom(me.email, me.password, CHROME_WINDOWS, "10.40.0.1");
    const phone = await signInFrom(me.email, me.password, SAFARI_IPHONE, "10.40.0.2");
    const laptop = await signInFrom(me.email, me.password, FIREFOX_MAC, "10.40.0.3");
    const theirs = await signInFrom(other.email, other.password, CHROME_WINDOWS, "10.40.0.4");
    for (const cookie of [phone, laptop, theirs]) expect((await list(cookie)).statusCode).toBe(200);
    const [hereId] = await sessionIdsOf(me.userId);

    const res = await revokeOthers(here);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: "Signed out of 2 other sessions.", revoked: 2 });
    expect((await list(phone)).statusCode).toBe(401);
    expect((await list(laptop)).statusCode).toBe(401);
    expect((await list(theirs)).statusCode).toBe(200);
    expect((await list(here)).json()).toEqual([expect.objectContaining({ id: hereId, current: true })]);
    expect(await auditRows("session.revoked_others", me.userId)).toEqual([
      { outcome: "success", actor_email: me.email, details: { revoked: 2 } },
    ]);

    const again = await revokeOthers(here);
    expect(again.json()).toEqual({ message: "You are not signed in anywhere else.", revoked: 0 });
  });
});

describe("an admin ends all of a person's sessions (POST /api/admin/revokesessions{client,employee}/{id})", () => {
  const add = async (kind: "client" | "employee", n: number) => {
    const password = "several-quiet-harbours";
    const res = await t.app.inject({
      method: "POST",
      url: kind === "client" ? "/api/admin/addclient" : "/api/admin/addemployee",
      headers: adminHeaders,
      payload:
        kind === "client"
          ? {
              clientId: `CL-S${n}`,
              firstName: "Session",
              lastName: `Client${n}`,
              email: `session.client${n}@example.com`,
              password,
              role: "client",
              privilege: "View",
              workbookIds: [],
            }
          : {
              employeeId: `EM-S${n}`,
              firstName: "Session",
              lastName: `Employee${n}`,
              email: `session.employee${n}@meridian-advisory.example`,
              password,
              role: "employee",
              privilege: "View",
              clientIds: [],
            },
    });
    expect(res.statusCode).toBe(201);
    const person = res.json().data[kind] as { email: string; c_id?: number; e_id?: number };
    return { email: person.email, password, id: (person.c_id ?? person.e_id)! };
  };
  const userIdOf = async (email: string) =>
    (await query<{ id: string }>(sql`select id from users where email = ${email}`))[0]!.id;

  it.each(["client", "employee"] as const)(
    "signs a %s out everywhere at once, audited, and leaves the admin and others signed in",
    async (kind) => {
      const person = await add(kind, kind === "client" ? 1 : 2);
      const bystander = await t.createUser(kind);
      const a = await signInFrom(person.email, person.password, CHROME_WINDOWS, "10.50.0.1");
      const b = await signInFrom(person.email, person.password, SAFARI_IPHONE, "10.50.0.2");
      const c = await signInFrom(bystander.email, bystander.password, CHROME_WINDOWS, "10.50.0.3");
      for (const cookie of [a, b, c]) expect((await list(cookie)).statusCode).toBe(200);

      const res = await t.app.inject({
        method: "POST",
        url: `/api/admin/revokesessions${kind}/${person.id}`,
        headers: adminHeaders,
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        message: "Signed out of 2 sessions. They must sign in again.",
        revoked: 2,
      });
      expect((await list(a)).statusCode).toBe(401);
      expect((await list(b)).statusCode).toBe(401);
      expect((await list(c)).statusCode).toBe(200);
      expect(
        (await t.app.inject({ method: "GET", url: "/api/admin/clients", headers: adminHeaders })).statusCode,
      ).toBe(200);
      const userId = await userIdOf(person.email);
      expect(await sessionIdsOf(userId)).toEqual([]);
      const admin = (
        await t.app.inject({ method: "GET", url: "/api/auth/get-session", headers: adminHeaders })
      ).json().user as { email: string };
      expect(await auditRows("user.sessions_revoked", userId)).toEqual([
        {
          outcome: "success",
          actor_email: admin.email,
          details: { revoked: 2, [kind === "client" ? "c_id" : "e_id"]: person.id },
        },
      ]);
      // They sign in again as before.
      expect(
        (await list(await signInFrom(person.email, person.password, CHROME_WINDOWS, "10.50.0.4"))).statusCode,
      ).toBe(200);
    },
  );

  it("answers an unknown person with 404 and a malformed id with a readable 400", async () => {
    const unknown = await t.app.inject({
      method: "POST",
      url: "/api/admin/revokesessionsclient/987654",
      headers: adminHeaders,
    });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ error: "Client not found." });
    const employee = await t.app.inject({
      method: "POST",
      url: "/api/admin/revokesessionsemployee/987654",
      headers: adminHeaders,
    });
    expect(employee.json()).toMatchObject({ error: "Employee not found." });
    const malformed = await t.app.inject({
      method: "POST",
      url: "/api/admin/revokesessionsclient/abc",
      headers: adminHeaders,
    });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toMatchObject({ error: "c_id must be a number.", code: "INVALID_INPUT" });
  });

  it("refuses a client and an employee with 403, before the id is read, and ends nothing", async () => {
    const person = await add("client", 3);
    const session = await signInFrom(person.email, person.password, CHROME_WINDOWS, "10.51.0.1");
    for (const role of ["client", "employee"] as const) {
      const headers = await headersFor(t, role);
      for (const id of [String(person.id), "abc"]) {
        const res = await t.app.inject({
          method: "POST",
          url: `/api/admin/revokesessionsclient/${id}`,
          headers,
        });
        expect(res.statusCode).toBe(403);
      }
    }
    expect((await list(session)).statusCode).toBe(200);
  });
});

describe("Better Auth's session changes share the portal's transaction", () => {
  it("undoes ended sessions when the rest of the transaction (its audit row) fails", async () => {
    const me = await t.createUser("client");
    const cookie = await signInFrom(me.email, me.password, CHROME_WINDOWS, "10.60.0.1");
    const before = await sessionIdsOf(me.userId);
    await expect(
      inAuthTransaction(t.auth, database.db, async (tx, sessions) => {
        await sessions.deleteUserSessions(me.userId);
        // Inside the transaction the sessions are gone...
        expect(await tx.execute(sql`select 1 from sessions where user_id = ${me.userId}`)).toMatchObject({
          rows: [],
        });
        throw new Error("the audit row could not be written");
      }),
    ).rejects.toThrow("the audit row could not be written");
    // ...and after its rollback they are back, still signed in.
    expect(await sessionIdsOf(me.userId)).toEqual(before);
    expect((await list(cookie)).statusCode).toBe(200);
  });
});

describe("browser and system from the user agent", () => {
  it.each([
    [CHROME_WINDOWS, { browser: "Chrome 131", os: "Windows 10", device: "desktop" }],
    [SAFARI_IPHONE, { browser: "Safari 18", os: "iOS 18.1", device: "mobile" }],
    // Browsers report macOS 10.15 whatever the real version: no version rather than a wrong one.
    [FIREFOX_MAC, { browser: "Firefox 133", os: "macOS", device: "desktop" }],
    ["curl/8.5.0", { browser: null, os: null, device: null }],
    ["", { browser: null, os: null, device: null }],
    [null, { browser: null, os: null, device: null }],
  ])("%s", (userAgent, expected) => {
    expect(describeUserAgent(userAgent)).toEqual(expected);
  });
});
