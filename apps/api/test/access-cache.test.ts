import { DEMO_CLIENTS, DEMO_EMPLOYEE, DEMO_WORKBOOKS } from "@portal/contracts/demo";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AccessCache } from "../src/access/access-cache.ts";
import { createAuditAppender, type AuditAction } from "../src/audit/audit.ts";
import type { DatabaseHandle } from "../src/db/client.ts";
import { auditLog } from "../src/db/schema.ts";
import { seedDemoData } from "../src/demo/seed.ts";
import { createTestApp, headersFor, ORIGIN } from "./support/app.ts";
import { createTestDatabase } from "./support/database.ts";

// Decision 005: sessions and viewing decisions are reused for ACCESS_CACHE_SECONDS, and every change
// made through this server is seen at once.
let database: DatabaseHandle;
let t: Awaited<ReturnType<typeof createTestApp>>;
const [olivia, marcus] = DEMO_CLIENTS;
const [portfolio, tax] = DEMO_WORKBOOKS;

beforeAll(async () => {
  database = await createTestDatabase();
  t = await createTestApp(database, { AUTH_IP_LIMIT_PER_MINUTE: "10000", ACCESS_CACHE_SECONDS: "2" });
  await seedDemoData(t.auth, database.db);
});
afterAll(async () => {
  await t.app.close();
  await database.close();
});

const embed = (headers: Record<string, string>, workbookId: string) =>
  t.app.inject({ method: "POST", url: "/api/sigma/provision-and-embed", headers, payload: { workbookId } });
const signedIn = async (email: string, password: string) => ({
  cookie: await t.sessionCookie(email, password),
  origin: ORIGIN,
});
const admin = async () => headersFor(t, "admin");
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("access cache: changes made through the portal apply at once", () => {
  it("an employee loses a client's workbooks as soon as the admin's edit is answered", async () => {
    const employee = await signedIn(DEMO_EMPLOYEE.email, DEMO_EMPLOYEE.password);
    expect((await embed(employee, portfolio.workbookName)).statusCode).toBe(200);
    expect((await embed(employee, portfolio.workbookName)).statusCode).toBe(200); // now cached

    const adminHeaders = await admin();
    const employees = (
      await t.app.inject({ method: "GET", url: "/api/admin/employees", headers: adminHeaders })
    ).json();
    const row = employees.find((e: { email: string }) => e.email === DEMO_EMPLOYEE.email);
    const clients = (
      await t.app.inject({ method: "GET", url: "/api/admin/clients", headers: adminHeaders })
    ).json();
    const marcusRow = clients.find((c: { client_id: string }) => c.client_id === marcus.clientId);
    // The employee's record as it is, with only the assigned clients changed.
    const assignClients = (clientIds: number[]) =>
      t.app.inject({
        method: "PUT",
        url: "/api/admin/editemployee",
        headers: adminHeaders,
        payload: {
          eId: row.e_id,
          employeeId: row.employee_id,
          firstName: row.first_name,
          lastName: row.last_name,
          privilege: row.privilege,
          clientIds,
        },
      });
    expect((await assignClients([])).statusCode).toBe(200);

    expect((await embed(employee, portfolio.workbookName)).statusCode).toBe(404);
    const mine = await t.app.inject({ method: "GET", url: "/api/me/workbooks", headers: employee });
    expect(mine.json()).toEqual([]);

    // Given back, the workbooks return at once too.
    expect((await assignClients([marcusRow.c_id])).statusCode).toBe(200);
    expect((await embed(employee, tax.workbookName)).statusCode).toBe(200);
  });

  it("a signed-out session and a deleted client's session are refused at once", async () => {
    const headers = await signedIn(olivia.email, olivia.password);
    expect((await embed(headers, portfolio.workbookName)).statusCode).toBe(200);
    const token = await t.jwtFor(headers.cookie);
    const bearer = { authorization: `Bearer ${token}` };
    expect((await embed(bearer, portfolio.workbookName)).statusCode).toBe(200);

    const out = await t.app.inject({ method: "POST", url: "/api/auth/sign-out", headers });
    expect(out.statusCode).toBe(200);
    expect((await embed(headers, portfolio.workbookName)).statusCode).toBe(401);
    expect((await embed(bearer, portfolio.workbookName)).statusCode).toBe(401);

    const again = await signedIn(olivia.email, olivia.password);
    expect((await embed(again, portfolio.workbookName)).statusCode).toBe(200);
    const adminHeaders = await admin();
    const clients = (
      await t.app.inject({ method: "GET", url: "/api/admin/clients", headers: adminHeaders })
    ).json();
    const oliviaRow = clients.find((c: { client_id: string }) => c.client_id === olivia.clientId);
    const deleted = await t.app.inject({
      method: "DELETE",
      url: `/api/admin/deleteclient/${oliviaRow.c_id}`,
      headers: adminHeaders,
    });
    expect(deleted.statusCode).toBe(200);
    expect((await embed(again, portfolio.workbookName)).statusCode).toBe(401);
  });

  it("a change made outside this server is seen within ACCESS_CACHE_SECONDS", async () => {
    const headers = await signedIn(marcus.email, marcus.password);
    expect((await embed(headers, tax.workbookName)).statusCode).toBe(200);
    // Another process (a second instance, a database console) removes the assignment.
    await database.db.execute(sql`
      delete from client_workbooks
       where c_id = (select c_id from clients where client_id = ${marcus.clientId})
         and workbook_id = (select id from workbooks where workbook_name = ${tax.workbookName})`);
    const deadline = Date.now() + 2500;
    let status = 200;
    while (status === 200 && Date.now() < deadline) {
      status = (await embed(headers, tax.workbookName)).statusCode;
      if (status === 200) await sleep(100);
    }
    expect(status).toBe(404);
    const denied = await database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "embed.denied"), eq(auditLog.actorEmail, marcus.email)));
    expect(denied.length).toBeGreaterThan(0);
  });
});

describe("AccessCache", () => {
  it("does not keep a value read while an invalidation happened", async () => {
    const cache = new AccessCache<{ v: number }>({ ttlSeconds: 30 });
    let loads = 0;
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const slow = cache.read("k", async () => {
      loads += 1;
      await gate;
      return { v: 1 };
    });
    cache.invalidate();
    release();
    expect(await slow).toEqual({ v: 1 });
    expect(await cache.read("k", async () => ({ v: 2 + loads++ }))).toEqual({ v: 3 });
    expect(await cache.read("k", async () => ({ v: 99 }))).toEqual({ v: 3 });
    expect(loads).toBe(2);
  });

  it("never caches a refusal, honours a value's own expiry, and does nothing when switched off", async () => {
    const cache = new AccessCache<{ v: number }>({ ttlSeconds: 30 });
    let calls = 0;
    expect(await cache.read("nobody", async () => (calls++, null))).toBeNull();
    expect(await cache.read("nobody", async () => (calls++, null))).toBeNull();
    expect(calls).toBe(2);
    await cache.read(
      "short",
      async () => ({ v: 1 }),
      () => Date.now() + 50,
    );
    await sleep(80);
    expect(await cache.read("short", async () => ({ v: 2 }))).toEqual({ v: 2 });
    await cache.read(
      "past",
      async () => ({ v: 1 }),
      () => Date.now() - 1,
    );
    expect(cache.size).toBe(1);

    const off = new AccessCache<{ v: number }>({ ttlSeconds: 0 });
    await off.read("k", async () => ({ v: 1 }));
    expect(await off.read("k", async () => ({ v: 2 }))).toEqual({ v: 2 });
  });
});

// Names no product code writes, so these rows cannot be mistaken for real events.
const testAction = (name: string) => name as AuditAction;

describe("audit appender", () => {
  it("writes events that arrive together in one go, and each caller waits for its own row", async () => {
    const appender = createAuditAppender(database.db);
    const marker = `batch-${Date.now()}`;
    await Promise.all(
      Array.from({ length: 25 }, (_, i) =>
        appender.record({ action: testAction("test.batch"), outcome: "success", targetId: `${marker}-${i}` }),
      ),
    );
    const written = await database.db
      .select({ targetId: auditLog.targetId, at: auditLog.occurredAt })
      .from(auditLog)
      .where(eq(auditLog.action, "test.batch"));
    expect(written.map((r) => r.targetId).sort()).toEqual(
      Array.from({ length: 25 }, (_, i) => `${marker}-${i}`).sort(),
    );
    // One statement: one transaction timestamp for all 25 rows.
    expect(new Set(written.map((r) => r.at.getTime())).size).toBe(1);
  });

  it("rejects every caller of a batch that could not be written, and keeps serving afterwards", async () => {
    const appender = createAuditAppender(database.db);
    const results = await Promise.allSettled([
      appender.record({ action: testAction("test.fail"), outcome: "success" }),
      // A NOT NULL violation fails the whole statement.
      appender.record({ action: null as never, outcome: "success" }),
    ]);
    expect(results.map((r) => r.status)).toEqual(["rejected", "rejected"]);
    expect(await database.db.select().from(auditLog).where(eq(auditLog.action, "test.fail"))).toHaveLength(0);
    await appender.record({ action: testAction("test.after"), outcome: "success" });
    expect(await database.db.select().from(auditLog).where(eq(auditLog.action, "test.after"))).toHaveLength(
      1,
    );
  });
});
