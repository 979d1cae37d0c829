import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "../src/db/client.ts";
import { createTestApp, headersFor } from "./support/app.ts";
import { createTestDatabase } from "./support/database.ts";

// The people module (issue 13): clients and employees are listed, added, edited and deleted by code written
// once for both kinds. These check what such shared code most easily gets wrong: one person's state leaking
// into another's row, and one kind's rules applied to the other.

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

const person = (kind: "client" | "employee", id: string, first: string) => ({
  [kind === "client" ? "clientId" : "employeeId"]: id,
  firstName: first,
  lastName: "Person",
  email: `${first.toLowerCase()}.person@example.com`,
  password: "people-module-passphrase",
  role: kind,
  privilege: "View",
});

describe("the people module", () => {
  it("keeps each row's sync state its own, for both kinds", async () => {
    for (const kind of ["client", "employee"] as const) {
      const first = (
        await call("POST", `/api/admin/add${kind}`, person(kind, `${kind}-A`, `${kind}a`))
      ).json().data[kind];
      const second = (
        await call("POST", `/api/admin/add${kind}`, person(kind, `${kind}-B`, `${kind}b`))
      ).json().data[kind];
      // The BI service refused the first person's change; the second's was delivered.
      await database.db.execute(sql`
        update provisioning_requests set status = 'failed', last_error = 'Sigma API 400: refused'
         where subject = ${first.email}`);
      await database.db.execute(sql`
        update provisioning_requests set status = 'done' where subject = ${second.email}`);
      const rows = (await call("GET", `/api/admin/${kind}s?q=${kind}`)).json() as Array<{
        email: string;
        sync_status: string;
        sync_error: string | null;
      }>;
      expect(rows.find((r) => r.email === first.email)).toMatchObject({
        sync_status: "failed",
        sync_error: "Sigma API 400: refused",
      });
      expect(rows.find((r) => r.email === second.email)).toMatchObject({
        sync_status: "synced",
        sync_error: null,
      });
    }
  });

  it("applies each kind's own edit rules: a client's privilege is read-only, an employee's is not", async () => {
    const client = (await call("POST", "/api/admin/addclient", person("client", "CL-RULE", "Rula"))).json()
      .data.client;
    const refused = await call("PUT", "/api/admin/editclient", {
      cId: client.c_id,
      clientId: "CL-RULE",
      firstName: "Rula",
      lastName: "Person",
      privilege: "Build",
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().code).toBe("PRIVILEGE_READ_ONLY");

    const employee = (
      await call("POST", "/api/admin/addemployee", person("employee", "EM-RULE", "Emil"))
    ).json().data.employee;
    const edited = await call("PUT", "/api/admin/editemployee", {
      eId: employee.e_id,
      employeeId: "EM-RULE",
      firstName: "Emil",
      lastName: "Person",
      privilege: "Build",
      clientIds: [client.c_id],
    });
    expect(edited.statusCode).toBe(200);
    expect(edited.json()).toMatchObject({
      message: "Employee updated successfully!",
      data: { privilege: "Build", clients: [{ c_id: client.c_id }] },
    });
  });

  it("answers each kind's 404 and 409 in its own words", async () => {
    expect((await call("DELETE", "/api/admin/deleteclient/999999")).json().error).toBe("Client not found.");
    expect((await call("DELETE", "/api/admin/deleteemployee/999999")).json().error).toBe(
      "Employee not found.",
    );
    await call("POST", "/api/admin/addemployee", person("employee", "EM-TWICE", "Twyla"));
    const again = await call("POST", "/api/admin/addemployee", {
      ...person("employee", "EM-TWICE", "Other"),
    });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({
      error: "Employee ID EM-TWICE is already in use.",
      code: "DUPLICATE_EMPLOYEE_ID",
    });
  });
});
