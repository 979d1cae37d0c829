import { sql } from "drizzle-orm";
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
  // Someone added with an invitation (D55), for Resend and Revoke.
  const invited = (
    await t.app.inject({
      method: "POST",
      url: "/api/admin/addclient",
      headers: as.admin!,
      payload: {
        clientId: `CL-I${i}`,
        firstName: "Invited",
        lastName: `Client${i}`,
        email: `matrix.invited${i}@example.com`,
        privilege: "View",
        invite: true,
      },
    })
  ).json().data.client;
  const [change] = (
    (await database.db.execute(
      sql`select id from provisioning_requests where subject = ${client.email} order by seq limit 1`,
    )) as unknown as { rows: { id: string }[] }
  ).rows;
  // A CSV import in preview (one row, nothing created yet).
  const importJob = (
    await t.app.inject({
      method: "POST",
      url: "/api/admin/imports?kind=client",
      headers: { ...as.admin!, "content-type": "text/csv" },
      payload: `Client ID,First name,Last name,Email,Password,Privilege\nCL-I${i},Import,Matrix,import.matrix${i}@example.com,amber-willow-passphrase,View\n`,
    })
  ).json() as { id: string };
  // A household of the client, for changing and deleting (issue 23).
  const household = (
    await t.app.inject({
      method: "POST",
      url: "/api/admin/households",
      headers: as.admin!,
      payload: { name: `Household ${i}`, clientIds: [client.c_id], combinedView: false },
    })
  ).json().household as { id: number };
  // A delegate of the client, invited by the firm, for removing (issue 23).
  const delegate = (
    await t.app.inject({
      method: "POST",
      url: `/api/admin/clients/${client.c_id}/delegates`,
      headers: as.admin!,
      payload: { email: `matrix.delegate${i}@example.net`, name: `Matrix Delegate ${i}` },
    })
  ).json().delegate as { id: number };
  return {
    i,
    wb,
    client,
    employee,
    invited,
    syncId: change!.id,
    importId: importJob.id,
    householdId: household.id,
    delegateId: delegate.id,
  };
}

type Fixture = Awaited<ReturnType<typeof fixture>>;
interface RouteCase {
  name: string;
  ok: number;
  request: (f: Fixture) => {
    method: "GET" | "POST" | "PUT" | "DELETE";
    url: string;
    payload?: object | string;
    headers?: Record<string, string>;
  };
}

const routes: RouteCase[] = [
  {
    name: "GET /api/admin/settings",
    ok: 200,
    request: () => ({ method: "GET", url: "/api/admin/settings" }),
  },
  {
    name: "PUT /api/admin/settings",
    ok: 200,
    request: (f) => ({
      method: "PUT",
      url: "/api/admin/settings",
      payload: { firmName: `Firm ${f.i}`, primaryColour: "#13233f", supportEmail: "help@example.com" },
    }),
  },
  {
    name: "DELETE /api/admin/settings/logo",
    ok: 200,
    request: () => ({ method: "DELETE", url: "/api/admin/settings/logo" }),
  },
  {
    name: "POST /api/admin/imports (CSV upload)",
    ok: 201,
    request: (f) => ({
      method: "POST",
      url: "/api/admin/imports?kind=client",
      headers: { "content-type": "text/csv" },
      payload: `Client ID,Email\nCL-U${f.i},upload.matrix${f.i}@example.com\n`,
    }),
  },
  {
    name: "GET /api/admin/imports/{id}",
    ok: 200,
    request: (f) => ({ method: "GET", url: `/api/admin/imports/${f.importId}` }),
  },
  {
    name: "PUT /api/admin/imports/{id}/mapping",
    ok: 200,
    request: (f) => ({
      method: "PUT",
      url: `/api/admin/imports/${f.importId}/mapping`,
      payload: { mapping: { clientId: 0, firstName: 1, lastName: 2, email: 3, password: 4, privilege: 5 } },
    }),
  },
  {
    name: "POST /api/admin/imports/{id}/start",
    ok: 202,
    request: (f) => ({ method: "POST", url: `/api/admin/imports/${f.importId}/start` }),
  },
  {
    name: "GET /api/admin/imports/{id}/failed.csv",
    ok: 200,
    request: (f) => ({ method: "GET", url: `/api/admin/imports/${f.importId}/failed.csv` }),
  },
  { name: "GET /api/admin/sync", ok: 200, request: () => ({ method: "GET", url: "/api/admin/sync" }) },
  { name: "GET /api/admin/audit", ok: 200, request: () => ({ method: "GET", url: "/api/admin/audit" }) },
  {
    name: "GET /api/admin/audit.csv",
    ok: 200,
    request: (f) => ({ method: "GET", url: `/api/admin/audit.csv?person=${f.client.email}` }),
  },
  {
    name: "GET /api/admin/audit/verify",
    ok: 200,
    request: () => ({ method: "GET", url: "/api/admin/audit/verify" }),
  },
  {
    name: "GET /api/admin/audit/vocabulary",
    ok: 200,
    request: () => ({ method: "GET", url: "/api/admin/audit/vocabulary" }),
  },
  {
    name: "POST /api/admin/viewasclient/:c_id",
    ok: 200,
    request: (f) => ({
      method: "POST",
      url: `/api/admin/viewasclient/${f.client.c_id}`,
      payload: { workbookId: f.wb.workbook_name },
    }),
  },
  {
    name: "GET /api/admin/sync/status",
    ok: 200,
    request: () => ({ method: "GET", url: "/api/admin/sync/status" }),
  },
  {
    name: "POST /api/admin/sync/retry-failed",
    ok: 200,
    request: () => ({ method: "POST", url: "/api/admin/sync/retry-failed" }),
  },
  {
    name: "POST /api/admin/sync/:id/retry",
    ok: 200,
    request: (f) => ({ method: "POST", url: `/api/admin/sync/${f.syncId}/retry` }),
  },
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
    name: "POST /api/admin/addclient (invitation)",
    ok: 201,
    request: (f) => ({
      method: "POST",
      url: "/api/admin/addclient",
      payload: {
        clientId: `CL-V${f.i}`,
        firstName: "Invited",
        lastName: "Client",
        email: `invited.client${f.i}@example.com`,
        privilege: "View",
        invite: true,
      },
    }),
  },
  {
    name: "POST /api/admin/addemployee (invitation)",
    ok: 201,
    request: (f) => ({
      method: "POST",
      url: "/api/admin/addemployee",
      payload: {
        employeeId: `EM-V${f.i}`,
        firstName: "Invited",
        lastName: "Employee",
        email: `invited.employee${f.i}@meridian-advisory.example`,
        privilege: "View",
        invite: true,
      },
    }),
  },
  {
    name: "POST /api/admin/invitations/{kind}/{id}/resend",
    ok: 200,
    request: (f) => ({ method: "POST", url: `/api/admin/invitations/client/${f.invited.c_id}/resend` }),
  },
  {
    name: "DELETE /api/admin/invitations/{kind}/{id}",
    ok: 200,
    request: (f) => ({ method: "DELETE", url: `/api/admin/invitations/client/${f.invited.c_id}` }),
  },
  {
    name: "POST /api/admin/password-reset/{kind}/{id}",
    ok: 200,
    request: (f) => ({ method: "POST", url: `/api/admin/password-reset/employee/${f.employee.e_id}` }),
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
  {
    name: "POST /api/admin/revokesessionsclient/{c_id}",
    ok: 200,
    request: (f) => ({ method: "POST", url: `/api/admin/revokesessionsclient/${f.client.c_id}` }),
  },
  {
    name: "POST /api/admin/revokesessionsemployee/{e_id}",
    ok: 200,
    request: (f) => ({ method: "POST", url: `/api/admin/revokesessionsemployee/${f.employee.e_id}` }),
  },
  {
    name: "GET /api/admin/households",
    ok: 200,
    request: () => ({ method: "GET", url: "/api/admin/households" }),
  },
  {
    name: "POST /api/admin/households",
    ok: 201,
    request: (f) => ({
      method: "POST",
      url: "/api/admin/households",
      payload: { name: `New household ${f.i}`, clientIds: [f.invited.c_id], combinedView: true },
    }),
  },
  {
    name: "PUT /api/admin/households/{id}",
    ok: 200,
    request: (f) => ({
      method: "PUT",
      url: `/api/admin/households/${f.householdId}`,
      payload: { name: `Renamed ${f.i}`, clientIds: [f.client.c_id, f.invited.c_id], combinedView: true },
    }),
  },
  {
    name: "DELETE /api/admin/households/{id}",
    ok: 200,
    request: (f) => ({ method: "DELETE", url: `/api/admin/households/${f.householdId}` }),
  },
  {
    name: "GET /api/admin/clients/{c_id}/household",
    ok: 200,
    request: (f) => ({ method: "GET", url: `/api/admin/clients/${f.client.c_id}/household` }),
  },
  {
    name: "GET /api/admin/clients/{c_id}/delegates",
    ok: 200,
    request: (f) => ({ method: "GET", url: `/api/admin/clients/${f.client.c_id}/delegates` }),
  },
  {
    name: "POST /api/admin/clients/{c_id}/delegates",
    ok: 201,
    request: (f) => ({
      method: "POST",
      url: `/api/admin/clients/${f.client.c_id}/delegates`,
      payload: { email: `new.delegate${f.i}@example.net`, name: "New Delegate" },
    }),
  },
  {
    name: "DELETE /api/admin/clients/{c_id}/delegates/{id}",
    ok: 200,
    request: (f) => ({
      method: "DELETE",
      url: `/api/admin/clients/${f.client.c_id}/delegates/${f.delegateId}`,
    }),
  },
  {
    name: "GET /api/admin/settings/delegation",
    ok: 200,
    request: () => ({ method: "GET", url: "/api/admin/settings/delegation" }),
  },
  {
    name: "PUT /api/admin/settings/delegation",
    ok: 200,
    request: () => ({
      method: "PUT",
      url: "/api/admin/settings/delegation",
      payload: { clientsMayInvite: true },
    }),
  },
  {
    name: "GET /api/admin/settings/sign-in",
    ok: 200,
    request: () => ({ method: "GET", url: "/api/admin/settings/sign-in" }),
  },
  {
    name: "PUT /api/admin/settings/sign-in",
    ok: 200,
    // The start-up default (MFA_REQUIRED_ROLES=admin), so the other cases' clients and employees stay ungated.
    request: () => ({
      method: "PUT",
      url: "/api/admin/settings/sign-in",
      payload: { mfaRequiredRoles: [], emailCodes: false },
    }),
  },
];

const expectations = [
  ["anonymous", 401],
  ["client", 403],
  ["employee", 403],
] as const;

/**
 * Objects for the refusals, made once: a refused request acts on nothing, and one that wrongly went through
 * fails its own status check (the 2xx cases below get fresh objects each).
 */
let refusalFixture: Promise<Fixture> | undefined;

describe.each(routes)("$name", (route) => {
  it.each(expectations)("answers %s with %i and changes nothing", async (who, status) => {
    const f = await (refusalFixture ??= fixture());
    const request = route.request(f);
    const res = await t.app.inject({ ...request, headers: { ...as[who], ...request.headers } });
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
    const request = route.request(f);
    const res = await t.app.inject({ ...request, headers: { ...as.admin, ...request.headers } });
    expect(res.statusCode).toBe(route.ok);
  });
});

/**
 * A client's own delegates (issue 23): only a client with a client record may list them or invite; anyone
 * else is refused those (403) and finds no delegate by id (404, as for another client's). Nothing changes.
 */
describe("the client's own delegates", () => {
  type MeCase = {
    name: string;
    ok: number;
    /** The answer to a signed-in person who is not the delegation's client. */
    refused: 403 | 404;
    request: (f: Fixture) => { method: "GET" | "POST" | "PATCH" | "DELETE"; url: string; payload?: object };
  };
  const meRoutes: MeCase[] = [
    {
      name: "GET /api/me/delegates",
      ok: 200,
      refused: 403,
      request: () => ({ method: "GET", url: "/api/me/delegates" }),
    },
    {
      name: "POST /api/me/delegates",
      ok: 201,
      refused: 403,
      request: (f) => ({
        method: "POST",
        url: "/api/me/delegates",
        payload: { email: `own.delegate${f.i}@example.net`, name: "Own Delegate" },
      }),
    },
    {
      name: "PATCH /api/me/delegates/{id}",
      ok: 200,
      refused: 404,
      request: (f) => ({
        method: "PATCH",
        url: `/api/me/delegates/${f.delegateId}`,
        payload: { workbookIds: [f.wb.id] },
      }),
    },
    {
      name: "DELETE /api/me/delegates/{id}",
      ok: 200,
      refused: 404,
      request: (f) => ({ method: "DELETE", url: `/api/me/delegates/${f.delegateId}` }),
    },
  ];
  const signedIn = async (email: string, password: string) => ({
    cookie: await t.sessionCookie(email, password),
    origin: ORIGIN,
  });
  let others: [string, Record<string, string>][];
  beforeAll(async () => {
    const another = (await fixture()).client as { email: string };
    others = [
      ["employee", as.employee!],
      ["admin", as.admin!],
      ["delegate", await headersFor(t, "delegate")],
      ["client without a client record", as.client!],
      ["another client", await signedIn(another.email, "tidal-granite-passphrase")],
    ];
  });
  /** The fixture client's delegates as the admin sees them. */
  const delegatesOf = async (f: Fixture) =>
    (
      await t.app.inject({
        method: "GET",
        url: `/api/admin/clients/${f.client.c_id}/delegates`,
        headers: as.admin!,
      })
    ).json();

  describe.each(meRoutes)("$name", (route) => {
    it("answers anonymous 401 and everyone but the client 403 or 404, and changes nothing", async () => {
      const f = await fixture();
      const request = route.request(f);
      const before = await delegatesOf(f);
      const anonymous = await t.app.inject({ ...request, headers: as.anonymous! });
      expect(anonymous.statusCode).toBe(401);
      for (const [who, headers] of others) {
        const res = await t.app.inject({ ...request, headers });
        // Another client lists their own (none) rather than being refused.
        const status = who === "another client" && route.refused === 403 ? route.ok : route.refused;
        expect(res.statusCode, who).toBe(status);
        if (status >= 400) expect(res.json(), who).toMatchObject({ error: expect.any(String) });
      }
      expect(await delegatesOf(f)).toEqual(before);
    });

    it(`answers the client with ${route.ok}`, async () => {
      const f = await fixture();
      const request = route.request(f);
      const headers = await signedIn(f.client.email, "tidal-granite-passphrase");
      const res = await t.app.inject({ ...request, headers });
      expect(res.statusCode, res.body).toBe(route.ok);
    });
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

/**
 * Authorization before validation: the role gate runs before the body or id is parsed, so a malformed request
 * answers 401 to nobody, 403 to a wrong role (and leaves an audit row), and only an admin learns it is a 400.
 */
const malformed: {
  name: string;
  method: "GET" | "POST" | "PUT" | "DELETE";
  url: string;
  payload?: string;
}[] = [
  { name: "GET /api/admin/workbooks?limit=0x10", method: "GET", url: "/api/admin/workbooks?limit=0x10" },
  { name: "GET /api/admin/clients?q=NUL", method: "GET", url: "/api/admin/clients?q=a%00b" },
  { name: "GET /api/admin/employees?offset=1.0", method: "GET", url: "/api/admin/employees?offset=1.0" },
  { name: "GET /api/admin/audit?before=0x10", method: "GET", url: "/api/admin/audit?before=0x10" },
  {
    name: "GET /api/admin/audit.csv?from=2026-02-31",
    method: "GET",
    url: "/api/admin/audit.csv?from=2026-02-31",
  },
  {
    name: "POST /api/admin/imports?kind=nobody",
    method: "POST",
    url: "/api/admin/imports?kind=nobody",
    payload: "{}",
  },
  {
    name: "PUT /api/admin/imports/not-an-id/mapping",
    method: "PUT",
    url: "/api/admin/imports/not-an-id/mapping",
    payload: "{}",
  },
  ...["addclient", "addemployee", "addworkbook"].map((path) => ({
    name: `POST /api/admin/${path} (bad body)`,
    method: "POST" as const,
    url: `/api/admin/${path}`,
    payload: JSON.stringify({ firstName: "\u0000", unexpected: [1, { deep: true }] }),
  })),
  ...["editclient", "editemployee"].map((path) => ({
    name: `PUT /api/admin/${path} (not JSON)`,
    method: "PUT" as const,
    url: `/api/admin/${path}`,
    payload: "{not json",
  })),
  {
    name: "PUT /api/admin/settings (contrast 1.5:1)",
    method: "PUT",
    url: "/api/admin/settings",
    payload: JSON.stringify({ firmName: "Firm", primaryColour: "#c8c8c8", supportEmail: "help@example.com" }),
  },
  {
    name: "PUT /api/admin/settings/logo (SVG with script)",
    method: "PUT",
    url: "/api/admin/settings/logo",
    payload: '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>',
  },
  {
    name: "PUT /api/admin/editworkbook/0x10",
    method: "PUT",
    url: "/api/admin/editworkbook/0x10",
    payload: "{}",
  },
  {
    name: "PUT /workbooks/editworkbook/1.0",
    method: "PUT",
    url: "/workbooks/editworkbook/1.0",
    payload: "{}",
  },
  {
    name: "POST /api/admin/households (bad body)",
    method: "POST",
    url: "/api/admin/households",
    payload: JSON.stringify({ name: "\u0000", clientIds: ["1"], unexpected: true }),
  },
  {
    name: "PUT /api/admin/households/0x10",
    method: "PUT",
    url: "/api/admin/households/0x10",
    payload: JSON.stringify({ name: "Household", clientIds: [1], combinedView: false }),
  },
  { name: "DELETE /api/admin/households/1.0", method: "DELETE", url: "/api/admin/households/1.0" },
  {
    name: "GET /api/admin/clients/007/household",
    method: "GET",
    url: "/api/admin/clients/007/household",
  },
  {
    name: "POST /api/admin/clients/1/delegates (bad body)",
    method: "POST",
    url: "/api/admin/clients/1/delegates",
    payload: JSON.stringify({ email: "a@example.net", name: "\u0000", unexpected: true }),
  },
  { name: "GET /api/admin/clients/007/delegates", method: "GET", url: "/api/admin/clients/007/delegates" },
  {
    name: "DELETE /api/admin/clients/1/delegates/0x10",
    method: "DELETE",
    url: "/api/admin/clients/1/delegates/0x10",
  },
  {
    name: "PUT /api/admin/settings/delegation (not true or false)",
    method: "PUT",
    url: "/api/admin/settings/delegation",
    payload: JSON.stringify({ clientsMayInvite: "yes" }),
  },
  {
    name: "PUT /api/admin/settings/sign-in (admin listed)",
    method: "PUT",
    url: "/api/admin/settings/sign-in",
    payload: JSON.stringify({ mfaRequiredRoles: ["admin"], emailCodes: false }),
  },
  ...[
    ["DELETE", "deleteclient"],
    ["DELETE", "deleteemployee"],
    ["DELETE", "deleteworkbook"],
    ["POST", "resyncclient"],
    ["POST", "resyncemployee"],
    ["POST", "resettwofactorclient"],
    ["POST", "resettwofactoremployee"],
    ["POST", "revokesessionsclient"],
    ["POST", "revokesessionsemployee"],
  ].map(([method, path]) => ({
    name: `${method} /api/admin/${path}/2147483648`,
    method: method as "DELETE" | "POST",
    url: `/api/admin/${path}/2147483648`,
  })),
];

describe.each(malformed)("malformed $name", (route) => {
  const send = (who: string) =>
    t.app.inject({
      method: route.method,
      url: route.url,
      headers: {
        ...as[who],
        ...(route.payload === undefined ? {} : { "content-type": "application/json" }),
      },
      ...(route.payload === undefined ? {} : { payload: route.payload }),
    });
  const refusals = async () => {
    const result = (await database.db.execute(
      sql`select count(*)::int as n from audit_log where action = 'access.denied'`,
    )) as unknown as { rows: { n: number }[] };
    return Number(result.rows[0]!.n);
  };

  it("answers anonymous 401, client and employee 403 (audited), admin 400", async () => {
    const anonymous = await send("anonymous");
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toMatchObject({ code: "UNAUTHENTICATED", requestId: expect.any(String) });
    for (const who of ["client", "employee"]) {
      const before = await refusals();
      const res = await send(who);
      expect(res.statusCode, who).toBe(403);
      expect(res.json(), who).toMatchObject({ code: "FORBIDDEN", error: expect.any(String) });
      expect(await refusals(), who).toBe(before + 1);
    }
    const byAdmin = await send("admin");
    expect(byAdmin.statusCode).toBe(400);
    expect(byAdmin.json()).toEqual({
      error: expect.stringMatching(/\w/),
      code: expect.any(String),
      requestId: expect.any(String),
    });
  });
});

describe("refusals leave an audit row", () => {
  it("records who was refused which route, and why", async () => {
    const res = await t.app.inject({ method: "GET", url: "/api/admin/clients", headers: as.client! });
    expect(res.statusCode).toBe(403);
    const result = (await database.db.execute(
      sql`select actor_email, target_type, target_id, outcome, details from audit_log
          where action = 'access.denied' and request_id = ${res.headers["x-request-id"] as string}`,
    )) as unknown as { rows: Record<string, unknown>[] };
    expect(result.rows).toEqual([
      {
        actor_email: expect.stringContaining("@example.com"),
        target_type: "route",
        target_id: "GET /api/admin/clients",
        outcome: "denied",
        details: { status: 403, code: "FORBIDDEN", path: "/api/admin/clients" },
      },
    ]);
  });

  it("audits the 403 of an admin who has not set up two-step verification", async () => {
    const a = await t.createUser("admin");
    const cookie = await t.sessionCookie(a.email, a.password);
    const res = await t.app.inject({
      method: "POST",
      url: "/api/admin/addworkbook",
      headers: { cookie, origin: ORIGIN, "content-type": "application/json" },
      payload: "{not json",
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe("MFA_ENROLLMENT_REQUIRED");
    const result = (await database.db.execute(
      sql`select actor_email, details from audit_log
          where action = 'access.denied' and request_id = ${res.headers["x-request-id"] as string}`,
    )) as unknown as { rows: Record<string, unknown>[] };
    expect(result.rows).toEqual([
      {
        actor_email: a.email,
        details: { status: 403, code: "MFA_ENROLLMENT_REQUIRED", path: "/api/admin/addworkbook" },
      },
    ]);
  });

  it("refuses a firm-managed person's malformed provision request with 403 before reading the body", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/api/sigma/provision",
      headers: { ...as.client!, "content-type": "application/json" },
      payload: JSON.stringify({ name: "\u0000", email: 7 }),
    });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({
      code: "FORBIDDEN",
      error: "This account's access is managed by the firm.",
    });
  });
});

/**
 * Whom a person may view (issue 23): the client parameter of the viewing routes opens a client only for
 * themselves or an accepted delegate of theirs; anyone else finds nothing (404, never 403, so ids cannot be
 * probed), and an anonymous caller is 401.
 */
describe("viewing another client's workbooks", () => {
  const viewing = (f: Fixture) => [
    { method: "GET" as const, url: "/api/me/clients" },
    { method: "GET" as const, url: `/api/me/workbooks?client=${f.client.c_id}` },
    { method: "GET" as const, url: `/api/me/workbook-start?client=${f.client.c_id}` },
    {
      method: "POST" as const,
      url: "/api/sigma/provision-and-embed",
      payload: { workbookId: f.wb.workbook_name, clientId: f.client.c_id },
    },
  ];

  it("answers anonymous 401 on every viewing route", async () => {
    const f = await fixture();
    for (const request of viewing(f)) {
      const res = await t.app.inject({ ...request, headers: as.anonymous! });
      expect(res.statusCode, request.url).toBe(401);
    }
  });

  it("finds nothing of the client for an admin, an employee, another client or a delegate of no one", async () => {
    const f = await fixture();
    for (const [who, headers] of [
      ["admin", as.admin!],
      ["employee", as.employee!],
      ["client", as.client!],
      ["delegate", await headersFor(t, "delegate")],
    ] as const) {
      const [clients, workbooks, start, embed] = viewing(f);
      const listed = await t.app.inject({ ...clients!, headers });
      expect(listed.statusCode, who).toBe(200);
      expect(
        (listed.json() as { c_id: number | null }[]).map((c) => c.c_id),
        who,
      ).not.toContain(f.client.c_id);
      expect((await t.app.inject({ ...workbooks!, headers })).statusCode, who).toBe(404);
      expect((await t.app.inject({ ...start!, headers })).statusCode, who).toBe(404);
      expect((await t.app.inject({ ...embed!, headers })).statusCode, who).toBe(404);
    }
  });

  it("opens the client's own workbooks to the client, with or without the parameter", async () => {
    const f = await fixture();
    const headers = {
      cookie: await t.sessionCookie(f.client.email, "tidal-granite-passphrase"),
      origin: ORIGIN,
    };
    for (const request of viewing(f)) {
      const res = await t.app.inject({ ...request, headers });
      expect(res.statusCode, request.url).toBe(200);
    }
  });
});
