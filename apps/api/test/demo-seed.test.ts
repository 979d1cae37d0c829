import { afterAll, beforeAll, expect, it } from "vitest";
import { DEMO_CLIENTS, DEMO_EMPLOYEE, DEMO_WORKBOOKS } from "@portal/contracts/demo";
import { seedDemoData } from "../src/demo/seed.ts";
import type { DatabaseHandle } from "../src/db/client.ts";
import { createTestApp, headersFor } from "./support/app.ts";
import { createTestDatabase } from "./support/database.ts";

let database: DatabaseHandle;
let t: Awaited<ReturnType<typeof createTestApp>>;

beforeAll(async () => {
  database = await createTestDatabase();
  t = await createTestApp(database);
});
afterAll(async () => {
  await t.app.close();
  await database.close();
});

it("seeds the demo firm once, idempotently, and every demo person can sign in", async () => {
  const first = await seedDemoData(t.auth, database.db);
  const second = await seedDemoData(t.auth, database.db);
  expect(second).toEqual(first);
  expect(first.map((p) => p.role)).toEqual(["admin", "client", "client", "employee"]);
  for (const person of first) expect((await t.signIn(person.email, person.password)).statusCode).toBe(200);

  const admin = await headersFor(t, "admin");
  const list = async (path: string) =>
    (await t.app.inject({ method: "GET", url: path, headers: admin })).json();
  const workbooks = await list("/api/admin/workbooks");
  expect(workbooks.map((w: { workbook_name: string }) => w.workbook_name)).toEqual(
    DEMO_WORKBOOKS.map((w) => w.workbookName),
  );
  const clients = await list("/api/admin/clients?sort=client_id");
  expect(clients.map((c: { client_id: string }) => c.client_id)).toEqual(DEMO_CLIENTS.map((c) => c.clientId));
  expect(clients[0].workbook_ids).toHaveLength(DEMO_WORKBOOKS.length);
  expect(clients[0].employees).toEqual([
    { first_name: DEMO_EMPLOYEE.firstName, last_name: DEMO_EMPLOYEE.lastName },
  ]);
  const employees = await list("/api/admin/employees");
  expect(employees).toHaveLength(1);
  expect(employees[0].clients).toHaveLength(2);
});
