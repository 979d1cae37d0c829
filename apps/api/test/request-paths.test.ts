import type { AddressInfo } from "node:net";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "../src/db/client.ts";
import { canonicalRequestTarget } from "../src/lib/canonical-url.ts";
import { createTestApp, headersFor, ORIGIN } from "./support/app.ts";
import { createTestDatabase } from "./support/database.ts";
import { rawRequest } from "./support/raw-http.ts";

let database: DatabaseHandle;
let t: Awaited<ReturnType<typeof createTestApp>>;
let port: number;
let client: Record<string, string>;
let admin: Record<string, string>;

beforeAll(async () => {
  database = await createTestDatabase();
  t = await createTestApp(database, { AUTH_IP_LIMIT_PER_MINUTE: "10000", SIGNIN_MAX_FAILURES: "3" });
  client = await headersFor(t, "client");
  admin = await headersFor(t, "admin");
  await t.app.listen({ port: 0, host: "127.0.0.1" });
  port = (t.app.server.address() as AddressInfo).port;
});
afterAll(async () => {
  await t.app.close();
  await database.close();
});

async function count(query: ReturnType<typeof sql>): Promise<number> {
  const result = (await database.db.execute(query)) as unknown as { rows: { n: number }[] };
  return Number(result.rows[0]!.n);
}
const refusals = () => count(sql`select count(*)::int as n from audit_log where action = 'access.denied'`);

/** Spellings every HTTP client, proxy or attacker may send for `/api/me/workbooks`. */
const SPELLINGS = [
  "/%61pi/me/workbooks",
  "/api/m%65/workbooks",
  "/%2Fapi/me/workbooks".replace("%2F", "/"), // `//api/...`
  "/api//me/workbooks",
  "/api/./me/workbooks",
  "/api/x/../me/workbooks",
  "/api/%2e%2e/api/me/workbooks",
  "/api/%2E/me/workbooks",
  "/api\\me/workbooks",
  "http://evil.example/api/me/workbooks",
];

describe("canonicalRequestTarget", () => {
  it.each([
    ["/%61pi/me/workbooks", "/api/me/workbooks"],
    ["//api///me//workbooks?x=%61", "/api/me/workbooks?x=%61"],
    ["/api/./me/../me/workbooks", "/api/me/workbooks"],
    ["/api/%2e%2E/x", "/x"],
    ["/api\\me", "/api/me"],
    ["http://evil.example/api/me?q=1", "/api/me?q=1"],
    ["/api/me#frag?x=1", "/api/me"],
    ["/api/%2561", "/api/%2561"], // never decoded twice
    ["/api/a%2fb", "/api/a%2Fb"], // a reserved character stays escaped
    ["/API/me", "/API/me"], // letter case is kept: routes are case-sensitive
    ["/%zz", "/%zz"], // left to the router's 400
  ])("%s → %s", (raw, canonical) => {
    expect(canonicalRequestTarget(raw)).toBe(canonical);
    expect(canonicalRequestTarget(canonical)).toBe(canonical);
  });
});

describe("every spelling of an /api path gets the /api answer", () => {
  it.each(SPELLINGS)("%s: anonymous 401 like /api/me/workbooks", async (target) => {
    const canonical = await rawRequest(port, "GET", "/api/me/workbooks");
    const res = await rawRequest(port, "GET", target);
    expect(canonical.status).toBe(401);
    expect(res.status).toBe(401);
    expect({ ...res.json(), requestId: "" }).toEqual({ ...canonical.json(), requestId: "" });
  });

  it.each(SPELLINGS)("%s: a client gets their own workbooks like /api/me/workbooks", async (target) => {
    const canonical = await rawRequest(port, "GET", "/api/me/workbooks", { cookie: client.cookie! });
    const res = await rawRequest(port, "GET", target, { cookie: client.cookie! });
    expect(canonical.status).toBe(200);
    expect(res.status).toBe(200);
    expect(res.body).toBe(canonical.body);
  });

  it("answers /API/... (another path: routes are case-sensitive) with 404, never 500", async () => {
    for (const headers of [{}, { cookie: client.cookie! }] as Record<string, string>[]) {
      const res = await rawRequest(port, "GET", "/API/me/workbooks", headers);
      expect(res.status).toBe(404);
      expect(res.json()).toMatchObject({ error: "Not found.", code: "NOT_FOUND" });
    }
  });

  it("answers an unknown /api path spelt differently as the canonical one: 401, then 404 when signed in", async () => {
    expect((await rawRequest(port, "GET", "/%61pi/nothing-here")).status).toBe(401);
    const signedIn = await rawRequest(port, "GET", "/%61pi/nothing-here", { cookie: client.cookie! });
    expect(signedIn.status).toBe(404);
    expect(signedIn.json()).toMatchObject({ error: "Not found.", code: "NOT_FOUND" });
  });

  it("answers an unreadable URL with the portal's 400 body", async () => {
    const res = await rawRequest(port, "GET", "/api/%zz");
    expect(res.status).toBe(400);
    expect(res.json()).toEqual({
      error: "The request address is not valid.",
      code: "BAD_URL",
      requestId: expect.any(String),
    });
  });
});

describe("role gate and CSRF check on every spelling", () => {
  it.each(["/%61pi/admin/clients", "/api/./admin/clients", "//api/admin/clients", "/api\\admin\\clients"])(
    "%s: a client gets 403 and the refusal is audited; an admin gets the list",
    async (target) => {
      const before = await refusals();
      const refused = await rawRequest(port, "GET", target, { cookie: client.cookie! });
      expect(refused.status).toBe(403);
      expect(refused.json()).toMatchObject({ code: "FORBIDDEN", error: expect.any(String) });
      expect(await refusals()).toBe(before + 1);
      expect((await rawRequest(port, "GET", target, { cookie: admin.cookie! })).status).toBe(200);
    },
  );

  it("refuses a cross-site admin write on a percent-encoded path (403, audited, nothing written)", async () => {
    const before = await refusals();
    const body = JSON.stringify({ workbook_name: "Csrf-abcdefghijklmnopqrstuv", team_name: "T" });
    const res = await rawRequest(
      port,
      "POST",
      "/%61pi/admin/addworkbook",
      { cookie: admin.cookie!, origin: "https://evil.example", "content-type": "application/json" },
      body,
    );
    expect(res.status).toBe(403);
    expect(res.json()).toMatchObject({ error: "Cross-site request refused.", code: "FORBIDDEN" });
    expect(await refusals()).toBe(before + 1);
    expect(await count(sql`select count(*)::int as n from workbooks where team_name = 'T'`)).toBe(0);
    const same = await rawRequest(
      port,
      "POST",
      "/%61pi/admin/addworkbook",
      { cookie: admin.cookie!, origin: ORIGIN, "content-type": "application/json" },
      body,
    );
    expect(same.status).toBe(201);
  });
});

describe("Better Auth sees the path the lock-out sees", () => {
  it.each(["/api/auth/sign-in/%65mail", "/api/auth/x/../sign-in/email", "/api/auth/sign-in\\email"])(
    "%s: a locked account stays locked",
    async (target) => {
      const person = await t.createUser("client");
      for (let i = 0; i < 3; i += 1) {
        const wrong = await t.signIn(person.email, "not-the-password", "10.9.0.1");
        expect(wrong.statusCode).toBe(401);
      }
      const res = await rawRequest(
        port,
        "POST",
        target,
        { origin: ORIGIN, "content-type": "application/json" },
        JSON.stringify({ email: person.email, password: person.password }),
      );
      expect(res.status).toBe(429);
      expect(res.headers["set-cookie"]).toBeUndefined();
    },
  );
});
