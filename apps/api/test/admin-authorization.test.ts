import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "../src/db/client.ts";
import { createTestApp, headersFor, ORIGIN } from "./support/app.ts";
import { createTestDatabase } from "./support/database.ts";

let database: DatabaseHandle;
let t: Awaited<ReturnType<typeof createTestApp>>;
const as: Record<string, Record<string, string>> = {};
let n = 0;
const next = () => ++n;
const urlId = (i: number) => `Auth${String(i).padStart(6, "0")}abcdefghijkl`;

beforeAll(async () => {
  database = await createTestDatabase();
  t = await createTestApp(database, { AUTH_IP_LIMIT_PER_MINUTE: "10000" });
  as.anonymous = { origin: ORIGIN };
  as.client = await headersFor(t, "client");
  as.employee = await headersFor(t, "employee");
  as.admin = await headersFor(t, "admin");
});
afterAll(async () => {
  await t.app.close();
  await database.close();
});

/** Fresh objects for each call, so every 2xx case has something real to act on. */
async function fixture() {
  const i = next();
  const wb = (
    await t.app.inject({
      method: "POST",
      url: "/api/admin/addworkbook",
      headers: as.admin!,
      payload: { workbook_name: `Matrix-${urlId(i)}`, team_name: `Team ${i}` },
    })
  ).json().data;
  const client = (
    await t.app.inject({
      method: "POST",
      url: "/api/admin/addclient",
      headers: as.admin!,
      payload: {
        clientId: `CL-M${i}`,
        firstName: "Matrix",
        lastName: `Client${i}`,
        email: `matrix.client${i}@example.com`,
        password: "tidal-granite-passphrase",
        role: "client",
        privilege: "View",
        workbookIds: [wb.id],
      },
    })
  ).json().data.client;
  const employee = (
    await t.app.inject({
      method: "POST",
      url: "/api/admin/addemployee",
      headers: as.admin!,
      payload: {
        employeeId: `EM-M${i}`,
        firstName: "Matrix",
        lastName: `Employee${i}`,
        email: `matrix.employee${i}@meridian-advisory.example`,
        password: "quiet-harbour-passphrase",
        clientIds: [client.c_id],
        role: "employee",
        privilege: "Act",
      },
    })
  ).json().data.employee;
  return { i, wb, client, employee };
}

type Fixture = Awaited<ReturnType<typeof fixture>>;
interface RouteCase {
  name: string;
  ok: number;
  request: (f: Fixture) => { method: "GET" | "POST" | "PUT" | "DELETE"; url: string; payload?: object };
}

const routes: RouteCase[] = [
  {
    name: "GET /api/admin/workbooks",
    ok: 200,
    request: () => ({ method: "GET", url: "/api/admin/workbooks" }),
  },
  { name: "GET /api/admin/clients", ok: 200, request: () => ({ method: "GET", url: "/api/admin/clients" }) },
  {
    name: "GET /api/admin/employees",
    ok: 200,
    request: () => ({ method: "GET", url: "/api/admin/employees" }),
  },
  {
    name: "POST /api/admin/addclient",
    ok: 201,
    request: (f) => ({
      method: "POST",
      url: "/api/admin/addclient",
      payload: {
        clientId: `CL-N${f.i}`,
        firstName: "New",
        lastName: "Client",
        email: `new.client${f.i}@example.com`,
        password: "fresh-meadow-passphrase",
        role: "client",
        privilege: "View",
        workbookIds: [f.wb.id],
      },
    }),
  },
  {
    name: "POST /api/admin/addemployee",
    ok: 201,
    request: (f) => ({
      method: "POST",
      url: "/api/admin/addemployee",
      payload: {
        employeeId: `EM-N${f.i}`,
        firstName: "New",
        lastName: "Employee",
        email: `new.employee${f.i}@meridian-advisory.example`,
        password: "fresh-orchard-passphrase",
        clientIds: [f.client.c_id],
        role: "employee",
        privilege: "Build",
      },
    }),
  },
  {
    name: "PUT /api/admin/editclient",
    ok: 200,
    request: (f) => ({
      method: "PUT",
      url: "/api/admin/editclient",
      payload: {
        cId: f.client.c_id,
        clientId: `CL-E${f.i}`,
        firstName: "Edited",
        lastName: "Client",
        privilege: "View",
      },
    }),
  },
  {
    name: "PUT /api/admin/editemployee",
    ok: 200,
    request: (f) => ({
      method: "PUT",
      url: "/api/admin/editemployee",
      payload: {
        eId: f.employee.e_id,
        employeeId: `EM-E${f.i}`,
        firstName: "Edited",
        lastName: "Employee",
        privilege: "View",
        clientIds: [],
      },
    }),
  },
  {
    name: "DELETE /api/admin/deleteclient/{c_id}",
    ok: 200,
    request: (f) => ({ method: "DELETE", url: `/api/admin/deleteclient/${f.client.c_id}` }),
  },
  {
    name: "DELETE /api/admin/deleteemployee/{e_id}",
    ok: 200,
    request: (f) => ({ method: "DELETE", url: `/api/admin/deleteemployee/${f.employee.e_id}` }),
  },
  {
    name: "DELETE /api/admin/deleteworkbook/{id}",
    ok: 200,
    request: (f) => ({ method: "DELETE", url: `/api/admin/deleteworkbook/${f.wb.id}` }),
  },
  {
    name: "POST /api/admin/addworkbook",
    ok: 201,
    request: (f) => ({
      method: "POST",
      url: "/api/admin/addworkbook",
      payload: { workbook_name: `Added-${urlId(f.i + 500000)}`, team_name: "T" },
    }),
  },
  {
    name: "PUT /api/admin/editworkbook/{id}",
    ok: 200,
    request: (f) => ({
      method: "PUT",
      url: `/api/admin/editworkbook/${f.wb.id}`,
      payload: { workbook_name: f.wb.workbook_name, team_name: "Edited" },
    }),
  },
  {
    name: "PUT /workbooks/editworkbook/{id}",
    ok: 200,
    request: (f) => ({
      method: "PUT",
      url: `/workbooks/editworkbook/${f.wb.id}`,
      payload: { workbook_name: f.wb.workbook_name, team_name: "Edited" },
    }),
  },
  {
    name: "POST /api/admin/resyncclient/{c_id}",
    ok: 200,
    request: (f) => ({ method: "POST", url: `/api/admin/resyncclient/${f.client.c_id}` }),
  },
  {
    name: "POST /api/admin/resyncemployee/{e_id}",
    ok: 200,
    request: (f) => ({ method: "POST", url: `/api/admin/resyncemployee/${f.employee.e_id}` }),
  },
  {
    name: "POST /api/admin/resettwofactorclient/{c_id}",
    ok: 200,
    request: (f) => ({ method: "POST", url: `/api/admin/resettwofactorclient/${f.client.c_id}` }),
  },
  {
    name: "POST /api/admin/resettwofactoremployee/{e_id}",
    ok: 200,
    request: (f) => ({ method: "POST", url: `/api/admin/resettwofactoremployee/${f.employee.e_id}` }),
  },
];

const expectations = [
  ["anonymous", 401],
  ["client", 403],
  ["employee", 403],
] as const;

describe.each(routes)("$name", (route) => {
  it.each(expectations)("answers %s with %i and changes nothing", async (who, status) => {
    const f = await fixture();
    const res = await t.app.inject({ ...route.request(f), headers: as[who] });
    expect(res.statusCode).toBe(status);
    expect(res.json()).toMatchObject({ error: expect.any(String) });
    const still = await t.app.inject({
      method: "GET",
      url: `/api/admin/clients?q=${f.client.email}`,
      headers: as.admin!,
    });
    expect(still.json()).toEqual([
      expect.objectContaining({ c_id: f.client.c_id, client_id: f.client.client_id }),
    ]);
  });

  it(`answers an admin with ${route.ok}`, async () => {
    const f = await fixture();
    const res = await t.app.inject({ ...route.request(f), headers: as.admin });
    expect(res.statusCode).toBe(route.ok);
  });
});

describe("bearer tokens", () => {
  it("lets an admin JWT through and stops a client JWT with 403", async () => {
    const a = await t.createUser("admin");
    const c = await t.createUser("client");
    const adminJwt = await t.jwtFor(await t.readyCookie(a.email, a.password, "admin"));
    const clientJwt = await t.jwtFor(await t.sessionCookie(c.email, c.password));
    expect(
      (
        await t.app.inject({
          method: "GET",
          url: "/api/admin/clients",
          headers: { authorization: `Bearer ${adminJwt}` },
        })
      ).statusCode,
    ).toBe(200);
    expect(
      (
        await t.app.inject({
          method: "GET",
          url: "/api/admin/clients",
          headers: { authorization: `Bearer ${clientJwt}` },
        })
      ).statusCode,
    ).toBe(403);
  });
});
