import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { DEMO_CLIENTS, DEMO_WORKBOOKS } from "@portal/contracts/demo";
import { loadOrCreateLocalSigmaCredentials } from "@portal/sigma";
import { and, eq, sql, type SQL } from "drizzle-orm";
import { jwtVerify } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../src/app.ts";
import type { DatabaseHandle } from "../src/db/client.ts";
import { auditLog } from "../src/db/schema.ts";
import { seedDemoData } from "../src/demo/seed.ts";
import { createTestApp, headersFor, ORIGIN } from "./support/app.ts";
import { createTestDatabase } from "./support/database.ts";

// The start of a workbook view (decision 024): the list and the first frame's one-time URL in one answer,
// decided, minted and audited exactly as GET /api/me/workbooks and POST /api/sigma/provision-and-embed.

let database: DatabaseHandle;
let t: Awaited<ReturnType<typeof createTestApp>>;
let secret: Uint8Array;
const [olivia, marcus] = DEMO_CLIENTS;
const [portfolio, tax] = DEMO_WORKBOOKS;
const cIds: Record<string, number> = {};

const query = async <T>(statement: SQL) =>
  ((await database.db.execute(statement)) as unknown as { rows: T[] }).rows;

beforeAll(async () => {
  database = await createTestDatabase();
  t = await createTestApp(database, { AUTH_IP_LIMIT_PER_MINUTE: "10000", ACCESS_CACHE_SECONDS: "0" });
  await seedDemoData(t.auth, database.db);
  secret = new TextEncoder().encode((await loadOrCreateLocalSigmaCredentials(t.config.dataDir)).embedSecret);
  for (const row of await query<{ c_id: number; client_id: string }>(
    sql`select c_id, client_id from clients`,
  ))
    cIds[row.client_id] = row.c_id;
  // Marcus keeps only the Tax Center.
  await database.db.execute(sql`
    delete from client_workbooks where c_id = ${cIds[marcus.clientId]}
       and workbook_id in (select id from workbooks where workbook_name <> ${tax.workbookName})`);
});
afterAll(async () => {
  await t.app.close();
  await database.close();
});

const signedIn = async (email: string, password: string) => ({
  cookie: await t.sessionCookie(email, password),
  origin: ORIGIN,
});
const start = (headers: Record<string, string>, search = "", app = t.app) =>
  app.inject({ method: "GET", url: `/api/me/workbook-start${search}`, headers });
const claimsOf = async (embedUrl: string) =>
  (await jwtVerify(new URL(embedUrl).searchParams.get(":jwt")!, secret, { algorithms: ["HS256"] })).payload;
const issuedTo = (email: string) =>
  database.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.action, "embed.issued"), eq(auditLog.actorEmail, email)));

describe("GET /api/me/workbook-start", () => {
  it("answers a client's list, their first workbook and its one-time URL with the claims of provision-and-embed", async () => {
    const headers = await signedIn(olivia.email, olivia.password);
    const before = (await issuedTo(olivia.email)).length;
    const res = await start(headers);
    expect(res.statusCode).toBe(200);
    expect(res.headers["cache-control"]).toBe("no-store");
    const body = res.json();
    const list = (await t.app.inject({ method: "GET", url: "/api/me/workbooks", headers })).json();
    expect(body).toMatchObject({ clientId: null, workbooks: list, workbook: list[0].workbook_name });
    const url = new URL(body.embedUrl);
    expect(url.pathname).toBe(`/local/workbook/${list[0].workbook_name}`);
    const claims = await claimsOf(body.embedUrl);
    const minted = await t.app.inject({
      method: "POST",
      url: "/api/sigma/provision-and-embed",
      headers,
      payload: { workbookId: list[0].workbook_name },
    });
    const { jti: _j, iat: _i, exp: _e, ...same } = await claimsOf(minted.json().embedUrl);
    expect(claims).toMatchObject({ ...same, user_attributes: { client_id: olivia.clientId } });
    // One-time: every answer mints its own token, and each is audited once, without the token.
    const again = await claimsOf((await start(headers)).json().embedUrl);
    expect(again.jti).not.toBe(claims.jti);
    const issued = await issuedTo(olivia.email);
    expect(issued.length - before).toBe(3);
    expect(issued.map((row) => (row.details as { jti: string }).jti)).toContain(claims.jti);
    expect(JSON.stringify(issued)).not.toContain(url.searchParams.get(":jwt")!);
  });

  it("opens the workbook the address names, and otherwise the first the person may view", async () => {
    const headers = await signedIn(marcus.email, marcus.password);
    const named = (await start(headers, `?workbook=${tax.workbookName}`)).json();
    expect(named).toMatchObject({
      workbook: tax.workbookName,
      workbooks: [expect.objectContaining({ workbook_name: tax.workbookName })],
    });
    // Olivia's workbook is not Marcus's: he gets his own first one, never a URL for it.
    const other = (await start(headers, `?workbook=${portfolio.workbookName}`)).json();
    expect(other.workbook).toBe(tax.workbookName);
    expect(new URL(other.embedUrl).pathname).toBe(`/local/workbook/${tax.workbookName}`);
    const denied = await database.db.select().from(auditLog).where(eq(auditLog.action, "embed.denied"));
    expect(denied.filter((row) => row.actorEmail === marcus.email)).toEqual([]);
  });

  it("opens nothing for someone without workbooks, nor for an admin, whom `/` sends to the back office", async () => {
    const author = await start(await headersFor(t, "author"));
    expect(author.statusCode).toBe(200);
    expect(author.json()).toEqual({ clientId: null, workbooks: [], workbook: null, embedUrl: null });
    const admin = await headersFor(t, "admin");
    const res = await start(admin);
    expect(res.statusCode).toBe(200);
    expect(res.json().embedUrl).toBeNull();
    const issued = await database.db.select().from(auditLog).where(eq(auditLog.action, "embed.issued"));
    expect(issued.filter((row) => row.actorEmail?.startsWith("admin-"))).toEqual([]);
  });

  it("requires a session, refuses another site's page and malformed addresses, and mints nothing then", async () => {
    expect((await start({ origin: ORIGIN })).statusCode).toBe(401);
    const headers = await signedIn(olivia.email, olivia.password);
    const before = (await issuedTo(olivia.email)).length;
    for (const site of ["cross-site", "same-site", "none"]) {
      const res = await start({ ...headers, "sec-fetch-site": site });
      expect(res.statusCode, site).toBe(403);
    }
    expect((await start({ ...headers, "sec-fetch-site": "same-origin" })).statusCode).toBe(200);
    for (const search of ["?client=abc", "?client=0", "?workbook=%00x", "?other=1"])
      expect((await start(headers, search)).statusCode, search).toBe(400);
    expect((await issuedTo(olivia.email)).length - before).toBe(1);
  });

  it("answers the list without a URL over the per-person limit, which provision-and-embed then reports", async () => {
    const limited = await createTestApp(database, {
      AUTH_IP_LIMIT_PER_MINUTE: "10000",
      EMBED_RATE_LIMIT_PER_MINUTE: "2",
    });
    try {
      const h = { cookie: await limited.sessionCookie(olivia.email, olivia.password), origin: ORIGIN };
      const urls = [];
      for (let i = 0; i < 3; i++) urls.push((await start(h, "", limited.app)).json().embedUrl);
      expect(urls.map((u) => typeof u)).toEqual(["string", "string", "object"]);
      const res = await limited.app.inject({
        method: "POST",
        url: "/api/sigma/provision-and-embed",
        headers: h,
        payload: { workbookId: portfolio.workbookName },
      });
      expect(res.statusCode).toBe(429);
    } finally {
      await limited.app.close();
    }
  });
});

describe("a delegate's start", () => {
  let delegate: { email: string; password: string; userId: string };
  beforeAll(async () => {
    delegate = await t.createUser("delegate", { name: "Daniel Reyes" });
    const [row] = await query<{ id: number }>(sql`
      insert into delegations (c_id, user_id, email, name, all_workbooks, accepted_at)
      values (${cIds[marcus.clientId]}, ${delegate.userId}, ${delegate.email}, 'Daniel Reyes', true, now())
      returning id`);
    expect(row).toBeDefined();
  });

  it("opens the client the address names under the delegate's own identity, audited against the client", async () => {
    const headers = await signedIn(delegate.email, delegate.password);
    const res = await start(headers, `?client=${cIds[marcus.clientId]}`);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ clientId: cIds[marcus.clientId], workbook: tax.workbookName });
    expect(await claimsOf(body.embedUrl)).toMatchObject({
      sub: delegate.email,
      account_type: "View",
      user_attributes: { client_id: "", client_ids: marcus.clientId },
    });
    const [row] = await issuedTo(delegate.email);
    expect(row).toMatchObject({ targetType: "client", targetId: String(cIds[marcus.clientId]) });
    expect(row!.details).toMatchObject({ delegationId: expect.any(Number), workbook: tax.workbookName });
  });

  it("opens the first client they view without a client in the address, as the SPA chooses", async () => {
    const body = (await start(await signedIn(delegate.email, delegate.password))).json();
    expect(body.clientId).toBe(cIds[marcus.clientId]);
    expect(body.workbooks.map((w: { workbook_name: string }) => w.workbook_name)).toEqual([tax.workbookName]);
  });

  it("finds nothing of a client who did not share, whether or not that client exists", async () => {
    const headers = await signedIn(delegate.email, delegate.password);
    const before = (await issuedTo(delegate.email)).length;
    for (const cId of [cIds[olivia.clientId], 2_000_000]) {
      const res = await start(headers, `?client=${cId}`);
      expect(res.statusCode, String(cId)).toBe(404);
      expect(res.json().error).toBe("Client not found.");
    }
    expect((await issuedTo(delegate.email)).length).toBe(before);
  });
});

describe("the page of a workbook view", () => {
  const apps: Awaited<ReturnType<typeof buildApp>>["app"][] = [];
  /** The portal with a built web app, configured as `on`. */
  const withPages = async (on: typeof t) => {
    const dist = mkdtempSync(path.join(os.tmpdir(), "portal-web-"));
    mkdirSync(path.join(dist, "assets"));
    writeFileSync(path.join(dist, "index.html"), '<!doctype html><div id="root"></div>');
    const { app } = await buildApp({ config: on.config, database, webDist: dist, logger: false });
    apps.push(app);
    return (url: string, headers: Record<string, string> = {}) => app.inject({ method: "GET", url, headers });
  };
  afterAll(async () => {
    for (const app of apps) await app.close();
  });
  const connect = () => `<${new URL(t.config.sigma.embedBaseUrl).origin}>; rel=preconnect`;
  const preload = (p: string) => `<${p}>; rel=preload; as=fetch; crossorigin=use-credentials`;

  it("has a signed-in client's browser connect to the BI service and start the session and the view", async () => {
    const page = await withPages(t);
    const headers = await signedIn(olivia.email, olivia.password);
    const links = (await page("/", headers)).headers.link;
    expect(links).toBe(
      [connect(), preload("/api/auth/get-session"), preload("/api/me/workbook-start")].join(", "),
    );
    const address = `/workbooks/${tax.workbookName}/?client=${cIds[olivia.clientId]}`;
    const started = `/api/me/workbook-start?workbook=${tax.workbookName}&client=${cIds[olivia.clientId]}`;
    expect((await page(address, headers)).headers.link).toContain(preload(started));
    // The preloaded path is one the API answers.
    expect((await t.app.inject({ method: "GET", url: started, headers })).statusCode).toBe(200);
  });

  it("only connects for anyone it will show no workbook, and says nothing on other pages", async () => {
    const page = await withPages(t);
    expect((await page("/")).headers.link).toBe(connect());
    expect((await page("/", await headersFor(t, "admin"))).headers.link).toBe(connect());
    const headers = await signedIn(olivia.email, olivia.password);
    for (const url of ["/profile", "/admin/client-list", "/workbooks/a/b", "/?client=abc", "/login"])
      expect((await page(url, headers)).headers.link, url).toBeUndefined();
  });

  it("starts nothing for a client who must set up two-step verification first, which the API would refuse", async () => {
    const strict = await createTestApp(database, {
      AUTH_IP_LIMIT_PER_MINUTE: "10000",
      MFA_REQUIRED_ROLES: "admin,client",
    });
    try {
      const page = await withPages(strict);
      const pending = await strict.createUser("client");
      const headers = { cookie: await strict.sessionCookie(pending.email, pending.password), origin: ORIGIN };
      expect((await start(headers, "", strict.app)).statusCode).toBe(403);
      expect((await page("/", headers)).headers.link).toBe(connect());
    } finally {
      await strict.app.close();
    }
  });
});
