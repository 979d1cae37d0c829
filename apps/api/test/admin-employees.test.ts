import { loadOrCreateLocalSigmaCredentials } from "@portal/sigma";
import { eq } from "drizzle-orm";
import { jwtVerify } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "../src/db/client.ts";
import { clientWorkbooks, employeeClients, users } from "../src/db/schema.ts";
import { createTestApp, headersFor } from "./support/app.ts";
import { createTestDatabase } from "./support/database.ts";

let database: DatabaseHandle;
let t: Awaited<ReturnType<typeof createTestApp>>;
let admin: Record<string, string>;

beforeAll(async () => {
  database = await createTestDatabase();
  t = await createTestApp(database, { AUTH_IP_LIMIT_PER_MINUTE: "10000" });
  admin = await headersFor(t, "admin");
});
afterAll(async () => {
  await t.app.close();
  await database.close();
});

const call = (method: "GET" | "POST" | "PUT" | "DELETE", url: string, payload?: object) =>
  t.app.inject({ method, url, headers: admin, ...(payload ? { payload } : {}) });

describe("employees and workbooks, end to end", () => {
  it("assigns clients to an employee, shows names both ways, re-assigns, and deletes cleanly", async () => {
    const w1 = (
      await call("POST", "/api/admin/addworkbook", {
        workbook_name: "Portfolio-Overview-AAAAAAAAAAAAAAAAAAAAA1",
        team_name: "Portfolio Clients",
      })
    ).json().data;
    const w2 = (
      await call("POST", "/api/admin/addworkbook", {
        workbook_name: "Tax-Center-AAAAAAAAAAAAAAAAAAAAA2",
        team_name: "Tax Clients",
      })
    ).json().data;
    const add = (clientId: string, first: string, last: string, workbookIds: number[]) =>
      call("POST", "/api/admin/addclient", {
        clientId,
        firstName: first,
        lastName: last,
        email: `${first.toLowerCase()}.${last.toLowerCase()}@example.com`,
        password: "client-passphrase-ok",
        role: "client",
        privilege: "View",
        workbookIds,
      }).then((r) => r.json().data.client);
    const olivia = await add("CL-1", "Olivia", "Bennett", [w1.id]);
    const marcus = await add("CL-2", "Marcus", "Chen", [w2.id]);

    const created = await call("POST", "/api/admin/addemployee", {
      employeeId: "EM-1",
      firstName: "Priya",
      lastName: "Raman",
      email: "priya.raman@meridian-advisory.example",
      password: "employee-passphrase-ok",
      clientIds: [marcus.c_id, olivia.c_id],
      role: "employee",
      privilege: "Act",
    });
    expect(created.statusCode).toBe(201);
    const employee = created.json().data.employee;
    expect(created.json().message).toBe("Employee registered successfully!");
    expect(employee.clients).toEqual([
      { c_id: olivia.c_id, first_name: "Olivia", last_name: "Bennett" },
      { c_id: marcus.c_id, first_name: "Marcus", last_name: "Chen" },
    ]);

    // The registration URL carries every team of the employee's clients and their client ids.
    const token = new URL(created.json().data.embed.embedUrl).searchParams.get(":jwt")!;
    const creds = await loadOrCreateLocalSigmaCredentials(t.config.dataDir);
    const { payload } = await jwtVerify(token, new TextEncoder().encode(creds.embedSecret));
    expect(payload).toMatchObject({
      account_type: "Act",
      teams: ["Portfolio Clients", "Tax Clients"],
      user_attributes: { client_ids: "CL-1,CL-2" },
    });

    const clientsList = (await call("GET", "/api/admin/clients")).json() as {
      c_id: number;
      employees: unknown[];
    }[];
    expect(clientsList.find((c) => c.c_id === olivia.c_id)?.employees).toEqual([
      { first_name: "Priya", last_name: "Raman" },
    ]);
    const employeesList = (await call("GET", "/api/admin/employees")).json();
    expect(employeesList).toEqual([
      expect.objectContaining({
        e_id: employee.e_id,
        employee_id: "EM-1",
        email: "priya.raman@meridian-advisory.example",
        privilege: "Act",
      }),
    ]);

    const edited = await call("PUT", "/api/admin/editemployee", {
      eId: employee.e_id,
      employeeId: "EM-1A",
      firstName: "Priya",
      lastName: "Raman-Iyer",
      privilege: "Build",
      clientIds: [olivia.c_id],
    });
    expect(edited.statusCode).toBe(200);
    expect(edited.json()).toMatchObject({
      message: "Employee updated successfully!",
      data: {
        employee_id: "EM-1A",
        last_name: "Raman-Iyer",
        privilege: "Build",
        clients: [{ c_id: olivia.c_id, first_name: "Olivia", last_name: "Bennett" }],
      },
    });
    const [user] = await database.db
      .select({ name: users.name })
      .from(users)
      .where(eq(users.email, "priya.raman@meridian-advisory.example"));
    expect(user?.name).toBe("Priya Raman-Iyer");

    // Deleting a workbook removes it from clients; deleting a client removes it from employees.
    expect((await call("DELETE", `/api/admin/deleteworkbook/${w1.id}`)).statusCode).toBe(200);
    expect(
      await database.db.select().from(clientWorkbooks).where(eq(clientWorkbooks.workbookId, w1.id)),
    ).toHaveLength(0);
    expect((await call("GET", "/api/admin/workbooks")).json()).toEqual([
      { id: w2.id, workbook_name: w2.workbook_name, team_name: "Tax Clients" },
    ]);
    expect((await call("DELETE", `/api/admin/deleteclient/${olivia.c_id}`)).statusCode).toBe(200);
    expect(
      await database.db.select().from(employeeClients).where(eq(employeeClients.eId, employee.e_id)),
    ).toHaveLength(0);

    expect((await call("DELETE", `/api/admin/deleteemployee/${employee.e_id}`)).statusCode).toBe(200);
    expect((await call("GET", "/api/admin/employees")).json()).toEqual([]);
    expect(
      (await t.signIn("priya.raman@meridian-advisory.example", "employee-passphrase-ok")).statusCode,
    ).not.toBe(200);
  });

  it("serves the OpenAPI description of the admin API", async () => {
    const res = await t.app.inject({ method: "GET", url: "/api/docs/json" });
    expect(res.statusCode).toBe(200);
    const doc = res.json() as { paths: Record<string, Record<string, unknown>> };
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        "/api/admin/addclient",
        "/api/admin/deleteclient/{c_id}",
        "/workbooks/editworkbook/{id}",
      ]),
    );
    expect(JSON.stringify(doc.paths["/api/admin/addclient"])).toContain("workbookIds");
    const ui = await t.app.inject({ method: "GET", url: "/api/docs/" });
    expect(ui.statusCode).toBe(200);
    expect(ui.headers["content-type"]).toMatch(/text\/html/);
  });
});
