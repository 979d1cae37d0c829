import { DEMO_CLIENTS, DEMO_EMPLOYEE, DEMO_WORKBOOKS } from "@portal/contracts/demo";
import { loadOrCreateLocalSigmaCredentials } from "@portal/sigma";
import { and, eq, sql } from "drizzle-orm";
import { jwtVerify } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "../src/db/client.ts";
import { auditLog } from "../src/db/schema.ts";
import { seedDemoData } from "../src/demo/seed.ts";
import { createTestApp, headersFor, ORIGIN } from "./support/app.ts";
import { createTestDatabase } from "./support/database.ts";

let database: DatabaseHandle;
let t: Awaited<ReturnType<typeof createTestApp>>;
let secret: Uint8Array;
const [olivia, marcus] = DEMO_CLIENTS;
const [portfolio, tax, income] = DEMO_WORKBOOKS;

beforeAll(async () => {
  database = await createTestDatabase();
  t = await createTestApp(database, { AUTH_IP_LIMIT_PER_MINUTE: "10000" });
  await seedDemoData(t.auth, database.db);
  secret = new TextEncoder().encode((await loadOrCreateLocalSigmaCredentials(t.config.dataDir)).embedSecret);
  // Marcus keeps only the Tax Center; the employee stays assigned to both clients.
  const admin = await headersFor(t, "admin");
  const clients = (
    await t.app.inject({ method: "GET", url: "/api/admin/clients?sort=client_id", headers: admin })
  ).json();
  const marcusRow = clients.find((c: { client_id: string }) => c.client_id === marcus.clientId);
  const workbooks = (
    await t.app.inject({ method: "GET", url: "/api/admin/workbooks", headers: admin })
  ).json();
  const others = workbooks.filter((w: { workbook_name: string }) => w.workbook_name !== tax.workbookName);
  for (const w of others) {
    // Client workbook assignments cannot be edited through the spec's API (spec §5), so set them up here.
    await database.db.execute(
      sql`delete from client_workbooks where c_id = ${marcusRow.c_id} and workbook_id = ${w.id}`,
    );
  }
});
afterAll(async () => {
  await t.app.close();
  await database.close();
});

async function signedIn(email: string, password: string) {
  return { cookie: await t.sessionCookie(email, password), origin: ORIGIN };
}
const embed = (headers: Record<string, string>, workbookId: string) =>
  t.app.inject({ method: "POST", url: "/api/sigma/provision-and-embed", headers, payload: { workbookId } });

describe("provision-and-embed", () => {
  it("gives a client a one-time URL for an assigned workbook, with claims derived from the database", async () => {
    const headers = await signedIn(olivia.email, olivia.password);
    const res = await embed(headers, portfolio.workbookName);
    expect(res.statusCode).toBe(200);
    expect(res.headers["cache-control"]).toBe("no-store");
    const url = new URL(res.json().embedUrl);
    expect(url.pathname).toBe(`/local/workbook/${portfolio.workbookName}`);
    const { payload } = await jwtVerify(url.searchParams.get(":jwt")!, secret, { algorithms: ["HS256"] });
    expect(payload).toMatchObject({
      sub: olivia.email,
      account_type: olivia.privilege,
      teams: DEMO_WORKBOOKS.map((w) => w.teamName).sort(),
      user_attributes: { client_id: olivia.clientId },
    });
    const second = new URL((await embed(headers, portfolio.workbookName)).json().embedUrl);
    const again = await jwtVerify(second.searchParams.get(":jwt")!, secret);
    expect(again.payload.jti).not.toBe(payload.jti);

    const issued = await database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "embed.issued"), eq(auditLog.actorEmail, olivia.email)));
    expect(issued).toHaveLength(2);
    expect(issued[0]).toMatchObject({
      ip: expect.any(String),
      details: expect.objectContaining({ clientIds: [olivia.clientId], jti: payload.jti }),
    });
    expect(JSON.stringify(issued)).not.toContain(url.searchParams.get(":jwt")!);
  });

  it("answers 404 — the same as for an unknown workbook — for a workbook not assigned to the client", async () => {
    const headers = await signedIn(marcus.email, marcus.password);
    const notAssigned = await embed(headers, portfolio.workbookName);
    const unknown = await embed(headers, "No-Such-Workbook-AAAAAAAAAAAAAAAAAAAAAA");
    expect(notAssigned.statusCode).toBe(404);
    expect(unknown.statusCode).toBe(404);
    expect(notAssigned.json().error).toBe(unknown.json().error);
    expect((await embed(headers, tax.workbookName)).statusCode).toBe(200);
    const mine = await t.app.inject({ method: "GET", url: "/api/me/workbooks", headers });
    expect(mine.json().map((w: { workbook_name: string }) => w.workbook_name)).toEqual([tax.workbookName]);
  });

  it("lets an employee see their clients' workbooks with every client's id as the attribute", async () => {
    const headers = await signedIn(DEMO_EMPLOYEE.email, DEMO_EMPLOYEE.password);
    const res = await embed(headers, income.workbookName);
    expect(res.statusCode).toBe(200);
    const { payload } = await jwtVerify(new URL(res.json().embedUrl).searchParams.get(":jwt")!, secret);
    expect(payload).toMatchObject({
      user_attributes: { client_ids: "CL-1001,CL-1002" },
      account_type: DEMO_EMPLOYEE.privilege,
    });
  });

  it("gives an employee nothing of an unassigned client's workbook", async () => {
    const admin = await headersFor(t, "admin");
    const lone = await t.app.inject({
      method: "POST",
      url: "/api/admin/addemployee",
      headers: admin,
      payload: {
        employeeId: "EM-LONE",
        firstName: "Lone",
        lastName: "Advisor",
        email: "lone.advisor@meridian-advisory.example",
        password: "amber-compass-passphrase",
        clientIds: [],
        role: "employee",
        privilege: "View",
      },
    });
    expect(lone.statusCode).toBe(201);
    const headers = await signedIn("lone.advisor@meridian-advisory.example", "amber-compass-passphrase");
    expect((await embed(headers, portfolio.workbookName)).statusCode).toBe(404);
    expect((await t.app.inject({ method: "GET", url: "/api/me/workbooks", headers })).json()).toEqual([]);
  });

  it("gives editors and authors no client workbooks, and admins any workbook without a client attribute", async () => {
    expect((await embed(await headersFor(t, "author"), portfolio.workbookName)).statusCode).toBe(404);
    const res = await embed(await headersFor(t, "admin"), portfolio.workbookName);
    expect(res.statusCode).toBe(200);
    const { payload } = await jwtVerify(new URL(res.json().embedUrl).searchParams.get(":jwt")!, secret);
    expect(payload.user_attributes).toEqual({ client_id: "", client_ids: "" });
  });

  it("requires a session, validates the body, and rate-limits per person", async () => {
    expect((await embed({ origin: ORIGIN }, portfolio.workbookName)).statusCode).toBe(401);
    const headers = await signedIn(olivia.email, olivia.password);
    const bad = await t.app.inject({
      method: "POST",
      url: "/api/sigma/provision-and-embed",
      headers,
      payload: {},
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toBe("workbookId is required.");
    const limited = await createTestApp(database, { AUTH_IP_LIMIT_PER_MINUTE: "10000" });
    try {
      const h = { cookie: await limited.sessionCookie(olivia.email, olivia.password), origin: ORIGIN };
      const statuses: number[] = [];
      for (let i = 0; i < 62; i++) {
        statuses.push(
          (
            await limited.app.inject({
              method: "POST",
              url: "/api/sigma/provision-and-embed",
              headers: h,
              payload: { workbookId: portfolio.workbookName },
            })
          ).statusCode,
        );
      }
      expect(statuses.slice(0, 60).every((s) => s === 200)).toBe(true);
      expect(statuses.slice(60)).toEqual([429, 429]);
    } finally {
      await limited.app.close();
    }
  });
});

describe("view as client", () => {
  it("mints exactly the client's own embed claims, for an admin only, and audits embed.view_as", async () => {
    const admin = await headersFor(t, "admin");
    const clients = (await t.app.inject({ method: "GET", url: "/api/admin/clients", headers: admin })).json();
    const marcusRow = clients.find((c: { client_id: string }) => c.client_id === marcus.clientId);
    const viewAs = (headers: Record<string, string>, cId: number, workbookId: string) =>
      t.app.inject({
        method: "POST",
        url: `/api/admin/viewasclient/${cId}`,
        headers,
        payload: { workbookId },
      });

    const res = await viewAs(admin, marcusRow.c_id, tax.workbookName);
    expect(res.statusCode).toBe(200);
    expect(res.headers["cache-control"]).toBe("no-store");
    const { payload } = await jwtVerify(new URL(res.json().embedUrl).searchParams.get(":jwt")!, secret);
    // Claims belong to the Sigma user (decision 017): exactly what Marcus's own embed carries, so viewing
    // as him never rewrites his account type (Analyze), teams or attributes.
    const own = await t.app.inject({
      method: "POST",
      url: "/api/sigma/provision-and-embed",
      headers: await signedIn(marcus.email, marcus.password),
      payload: { workbookId: tax.workbookName },
    });
    const { payload: ownClaims } = await jwtVerify(
      new URL(own.json().embedUrl).searchParams.get(":jwt")!,
      secret,
    );
    const userClaims = (claims: Record<string, unknown>) => {
      const { jti: _jti, iat: _iat, exp: _exp, ...rest } = claims;
      return rest;
    };
    expect(userClaims(payload)).toEqual(userClaims(ownClaims));
    expect(payload).toMatchObject({
      sub: marcus.email,
      user_attributes: { client_id: marcus.clientId },
      account_type: "Analyze",
    });
    const [row] = await database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "embed.view_as"), eq(auditLog.targetId, String(marcusRow.c_id))));
    expect(row).toMatchObject({ outcome: "success", targetType: "client" });
    expect(row!.details).toMatchObject({ clientId: marcus.clientId, workbook: tax.workbookName });

    // Only the client's own workbooks; unknown clients; and nobody but an admin.
    const other = await t.app.inject({
      method: "POST",
      url: "/api/admin/addworkbook",
      headers: admin,
      payload: { workbook_name: "View-As-Other-KKKKKKKKKKKKKKKKKKKKKK", team_name: "View As Other" },
    });
    expect((await viewAs(admin, marcusRow.c_id, other.json().data.workbook_name)).statusCode).toBe(404);
    expect((await viewAs(admin, 2_000_000, tax.workbookName)).statusCode).toBe(404);
    const asClient = await signedIn(marcus.email, marcus.password);
    expect((await viewAs(asClient, marcusRow.c_id, tax.workbookName)).statusCode).toBe(403);
    expect((await viewAs({ origin: ORIGIN }, marcusRow.c_id, tax.workbookName)).statusCode).toBe(401);
  });
});
