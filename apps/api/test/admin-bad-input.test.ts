import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "../src/db/client.ts";
import { createTestApp, headersFor } from "./support/app.ts";
import { createTestDatabase } from "./support/database.ts";

let database: DatabaseHandle;
let t: Awaited<ReturnType<typeof createTestApp>>;
let admin: Record<string, string>;
let existing: {
  wb: { id: number; workbook_name: string };
  client: { c_id: number; client_id: string; email: string };
  employee: { e_id: number };
};

beforeAll(async () => {
  database = await createTestDatabase();
  t = await createTestApp(database, { AUTH_IP_LIMIT_PER_MINUTE: "10000" });
  admin = await headersFor(t, "admin");
  const wb = (
    await t.app.inject({
      method: "POST",
      url: "/api/admin/addworkbook",
      headers: admin,
      payload: { workbook_name: "Bad-Input-abcdefghijklmnopqrstuv", team_name: "Team" },
    })
  ).json().data;
  await t.app.inject({
    method: "POST",
    url: "/api/admin/addworkbook",
    headers: admin,
    payload: { workbook_name: "Bad-Input-Other-abcdefghijklmnopqrstuv", team_name: "Other Team" },
  });
  const client = (
    await t.app.inject({
      method: "POST",
      url: "/api/admin/addclient",
      headers: admin,
      payload: {
        clientId: "CL-OK",
        firstName: "Ok",
        lastName: "Client",
        email: "ok.client@example.com",
        password: "steady-river-passphrase",
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
      headers: admin,
      payload: {
        employeeId: "EM-OK",
        firstName: "Ok",
        lastName: "Employee",
        email: "ok.employee@example.com",
        password: "steady-lake-passphrase",
        clientIds: [client.c_id],
        role: "employee",
        privilege: "Act",
      },
    })
  ).json().data.employee;
  existing = { wb, client, employee };
});
afterAll(async () => {
  await t.app.close();
  await database.close();
});

/** Everything an admin write could change, in one comparable value. */
async function snapshot() {
  const result = await database.db.execute(sql`select
    (select count(*)::int from users) as users,
    (select count(*)::int from accounts) as accounts,
    (select json_agg(c order by c.c_id) from (select c_id, client_id, first_name, last_name, email, privilege from clients) c) as clients,
    (select json_agg(e order by e.e_id) from (select e_id, employee_id, first_name, last_name, privilege from employees) e) as employees,
    (select json_agg(w order by w.id) from (select id, workbook_name, team_name from workbooks) w) as workbooks,
    (select count(*)::int from client_workbooks) as client_workbooks,
    (select count(*)::int from employee_clients) as employee_clients,
    (select count(*)::int from provisioning_requests) as outbox,
    (select count(*)::int from audit_log where action not like 'auth.%') as audit`);
  return (result as unknown as { rows: unknown[] }).rows[0];
}

const huge = "x".repeat(10_000);
const validClient = () => ({
  clientId: "CL-NEW",
  firstName: "New",
  lastName: "Client",
  email: "new.client@example.com",
  password: "fresh-meadow-passphrase",
  role: "client",
  privilege: "View",
  workbookIds: [] as number[],
});
const validEmployee = () => ({
  employeeId: "EM-NEW",
  firstName: "New",
  lastName: "Employee",
  email: "new.employee@example.com",
  password: "fresh-orchard-passphrase",
  clientIds: [] as number[],
  role: "employee",
  privilege: "View",
});

type Case = [label: string, body: unknown, expected?: string | RegExp];

const cases: Record<string, { method: "POST" | "PUT" | "DELETE"; url: () => string; bodies: () => Case[] }> =
  {
    addclient: {
      method: "POST",
      url: () => "/api/admin/addclient",
      bodies: () => [
        ["no body", undefined, "All fields are required."],
        ["an array", [], "The request body must be a JSON object."],
        ["missing first name", { ...validClient(), firstName: undefined }, "All fields are required."],
        ["blank last name", { ...validClient(), lastName: "   " }, "All fields are required."],
        ["missing privilege", { ...validClient(), privilege: undefined }, "All fields are required."],
        [
          "unknown privilege",
          { ...validClient(), privilege: "Admin" },
          "Privilege must be one of Build, Analyze, Act, View.",
        ],
        ["number as name", { ...validClient(), firstName: 42 }, "First Name must be text."],
        ["bad email", { ...validClient(), email: "not-an-email" }, "Enter a valid email address."],
        ["underscore email", { ...validClient(), email: "a_b@example.com" }, /underscore/],
        [
          "short password",
          { ...validClient(), password: "short" },
          "Password must be at least 8 characters.",
        ],
        ["huge name", { ...validClient(), firstName: huge }, "First Name must be at most 100 characters."],
        ["huge client id", { ...validClient(), clientId: huge }, /Client ID must be at most 64/],
        ["client id with spaces", { ...validClient(), clientId: "CL 1" }, /letters, digits/],
        ["role admin", { ...validClient(), role: "admin" }, "role must be client."],
        [
          "workbook ids as strings",
          { ...validClient(), workbookIds: ["1"] },
          "Workbook ids must be numbers.",
        ],
        ["negative workbook id", { ...validClient(), workbookIds: [-1] }, "Workbook ids must be positive."],
        ["unknown workbook id", { ...validClient(), workbookIds: [987654] }, "Unknown workbook id: 987654."],
        ["extra field", { ...validClient(), isAdmin: true }, "Unknown field: isAdmin."],
        [
          "existing email",
          { ...validClient(), email: "ok.client@example.com" },
          "A user with this email already exists.",
        ],
        ["existing client id", { ...validClient(), clientId: "CL-OK" }, "Client ID CL-OK is already in use."],
      ],
    },
    addemployee: {
      method: "POST",
      url: () => "/api/admin/addemployee",
      bodies: () => [
        ["no body", undefined, "All fields are required."],
        ["missing employee id", { ...validEmployee(), employeeId: undefined }, "All fields are required."],
        [
          "unknown privilege",
          { ...validEmployee(), privilege: "Owner" },
          "Privilege must be one of Build, Analyze, Act, View.",
        ],
        [
          "client ids not a list",
          { ...validEmployee(), clientIds: "1,2" },
          "Client ids must be a list of numbers.",
        ],
        [
          "unknown client ids",
          { ...validEmployee(), clientIds: [999998, 999999] },
          "Unknown client ids: 999998, 999999.",
        ],
        [
          "fractional client id",
          { ...validEmployee(), clientIds: [1.5] },
          "Client ids must be whole numbers.",
        ],
        ["huge password", { ...validEmployee(), password: huge }, "Password must be at most 128 characters."],
        ["role client", { ...validEmployee(), role: "client" }, "role must be employee."],
        [
          "existing email",
          { ...validEmployee(), email: "ok.client@example.com" },
          "A user with this email already exists.",
        ],
        [
          "existing employee id",
          { ...validEmployee(), employeeId: "EM-OK" },
          "Employee ID EM-OK is already in use.",
        ],
      ],
    },
    editclient: {
      method: "PUT",
      url: () => "/api/admin/editclient",
      bodies: () => [
        ["no body", undefined, "All fields are required."],
        ["missing cId", { clientId: "CL-X", firstName: "A", lastName: "B", privilege: "View" }, /cId/],
        [
          "cId as text",
          { cId: "abc", clientId: "CL-X", firstName: "A", lastName: "B", privilege: "View" },
          "cId must be numbers.",
        ],
        [
          "blank first name",
          { cId: existing.client.c_id, clientId: "CL-X", firstName: "", lastName: "B", privilege: "View" },
          "All fields are required.",
        ],
        [
          "privilege change",
          { cId: existing.client.c_id, clientId: "CL-X", firstName: "A", lastName: "B", privilege: "Build" },
          "A client's privilege cannot be changed on Edit Client.",
        ],
        [
          "email change",
          {
            cId: existing.client.c_id,
            clientId: "CL-X",
            firstName: "A",
            lastName: "B",
            privilege: "View",
            email: "x@example.com",
          },
          "Unknown field: email.",
        ],
        [
          "workbook change",
          {
            cId: existing.client.c_id,
            clientId: "CL-X",
            firstName: "A",
            lastName: "B",
            privilege: "View",
            workbookIds: [],
          },
          "Unknown field: workbookIds.",
        ],
        [
          "unknown cId",
          { cId: 424242, clientId: "CL-X", firstName: "A", lastName: "B", privilege: "View" },
          "Client not found.",
        ],
      ],
    },
    editemployee: {
      method: "PUT",
      url: () => "/api/admin/editemployee",
      bodies: () => [
        ["no body", undefined, "All fields are required."],
        [
          "unknown privilege",
          {
            eId: existing.employee.e_id,
            employeeId: "EM-X",
            firstName: "A",
            lastName: "B",
            privilege: "Root",
            clientIds: [],
          },
          "Privilege must be one of Build, Analyze, Act, View.",
        ],
        [
          "password change",
          {
            eId: existing.employee.e_id,
            employeeId: "EM-X",
            firstName: "A",
            lastName: "B",
            privilege: "View",
            clientIds: [],
            password: "new-password-123",
          },
          "Unknown field: password.",
        ],
        [
          "unknown client",
          {
            eId: existing.employee.e_id,
            employeeId: "EM-X",
            firstName: "A",
            lastName: "B",
            privilege: "View",
            clientIds: [777777],
          },
          "Unknown client id: 777777.",
        ],
        [
          "unknown eId",
          {
            eId: 525252,
            employeeId: "EM-X",
            firstName: "A",
            lastName: "B",
            privilege: "View",
            clientIds: [],
          },
          "Employee not found.",
        ],
      ],
    },
    addworkbook: {
      method: "POST",
      url: () => "/api/admin/addworkbook",
      bodies: () => [
        ["no body", undefined, "All fields are required."],
        ["missing team", { workbook_name: "Some-abcdefghijklmnopqrstuv" }, "All fields are required."],
        ["blank name", { workbook_name: " ", team_name: "T" }, "All fields are required."],
        ["name without url id", { workbook_name: "Portfolio Overview", team_name: "T" }, /Sigma URL name/],
        [
          "name with a slash",
          { workbook_name: "a/b-abcdefghijklmnopqrstuv", team_name: "T" },
          /Sigma URL name/,
        ],
        [
          "huge team",
          { workbook_name: "Some-abcdefghijklmnopqrstuv", team_name: huge },
          "Team Name must be at most 200 characters.",
        ],
        [
          "duplicate name",
          { workbook_name: "Bad-Input-abcdefghijklmnopqrstuv", team_name: "T" },
          "A workbook named Bad-Input-abcdefghijklmnopqrstuv already exists.",
        ],
        [
          "team differing only in case",
          { workbook_name: "Some-abcdefghijklmnopqrstuv", team_name: "other TEAM" },
          "Another workbook uses the team Other Team. Use exactly that name to share the team, or a different name.",
        ],
      ],
    },
    editworkbook: {
      method: "PUT",
      url: () => `/api/admin/editworkbook/${existing.wb.id}`,
      bodies: () => [
        ["no body", undefined, "All fields are required."],
        ["missing name", { team_name: "T" }, "All fields are required."],
        [
          "extra field",
          { workbook_name: existing.wb.workbook_name, team_name: "T", id: 5 },
          "Unknown field: id.",
        ],
        [
          "team differing only in case",
          { workbook_name: existing.wb.workbook_name, team_name: "other team" },
          "Another workbook uses the team Other Team. Use exactly that name to share the team, or a different name.",
        ],
      ],
    },
    "editworkbook (unknown id)": {
      method: "PUT",
      url: () => "/api/admin/editworkbook/99999",
      bodies: () => [
        [
          "unknown id",
          { workbook_name: "Any-abcdefghijklmnopqrstuv", team_name: "T" },
          "Workbook not found.",
        ],
      ],
    },
    "editworkbook (bad id)": {
      method: "PUT",
      url: () => "/api/admin/editworkbook/abc",
      bodies: () => [
        ["text id", { workbook_name: "Any-abcdefghijklmnopqrstuv", team_name: "T" }, "id must be a number."],
      ],
    },
  };

const deletes: [string, string][] = [
  ["/api/admin/deleteclient/abc", "c_id must be a number."],
  ["/api/admin/deleteclient/0", "c_id must be a positive number."],
  ["/api/admin/deleteclient/99999999999", "c_id is out of range."],
  ["/api/admin/deleteclient/123456", "Client not found."],
  ["/api/admin/deleteemployee/1.5", "e_id must be a whole number."],
  ["/api/admin/deleteemployee/123456", "Employee not found."],
  ["/api/admin/deleteworkbook/-3", "id must be a positive number."],
  ["/api/admin/deleteworkbook/123456", "Workbook not found."],
];

describe.each(Object.entries(cases))("%s", (_name, spec) => {
  it("answers every malformed payload with 4xx and a readable error, and changes nothing", async () => {
    for (const [label, body, expected] of spec.bodies()) {
      const before = await snapshot();
      const res = await t.app.inject({
        method: spec.method,
        url: spec.url(),
        headers: admin,
        ...(body === undefined ? {} : { payload: body as object }),
      });
      expect(res.statusCode, label).toBeGreaterThanOrEqual(400);
      expect(res.statusCode, label).toBeLessThan(500);
      const error = res.json().error as string;
      if (typeof expected === "string") expect(error, label).toBe(expected);
      else expect(error, label).toMatch(expected!);
      expect(await snapshot(), label).toEqual(before);
    }
  });
});

describe("deletes with bad or unknown ids", () => {
  it.each(deletes)("DELETE %s → %s", async (url, message) => {
    const before = await snapshot();
    const res = await t.app.inject({ method: "DELETE", url, headers: admin });
    expect(res.statusCode === 400 || res.statusCode === 404).toBe(true);
    expect(res.json().error).toBe(message);
    expect(await snapshot()).toEqual(before);
  });
});

describe("transport-level bad input", () => {
  it("answers malformed JSON and oversized bodies with 4xx, not 5xx", async () => {
    const malformed = await t.app.inject({
      method: "POST",
      url: "/api/admin/addclient",
      headers: { ...admin, "content-type": "application/json" },
      payload: "{not json",
    });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().error).toMatch(/JSON/);
    const oversized = await t.app.inject({
      method: "POST",
      url: "/api/admin/addclient",
      headers: { ...admin, "content-type": "application/json" },
      payload: JSON.stringify({ ...validClient(), firstName: "y".repeat(400_000) }),
    });
    expect(oversized.statusCode).toBe(413);
    expect(typeof oversized.json().error).toBe("string");
  });
});

describe("team names", () => {
  it("lets workbooks share a team under its exact name, and a workbook re-case a team no other uses", async () => {
    const shared = await t.app.inject({
      method: "POST",
      url: "/api/admin/addworkbook",
      headers: admin,
      payload: { workbook_name: "Shared-Team-abcdefghijklmnopqrstuv", team_name: "Other Team" },
    });
    expect(shared.statusCode).toBe(201);
    expect(shared.json().data.team_name).toBe("Other Team");
    const recased = await t.app.inject({
      method: "PUT",
      url: `/api/admin/editworkbook/${existing.wb.id}`,
      headers: admin,
      payload: { workbook_name: existing.wb.workbook_name, team_name: "TEAM" },
    });
    expect(recased.statusCode).toBe(200);
    expect(recased.json().data.team_name).toBe("TEAM");
  });
});
