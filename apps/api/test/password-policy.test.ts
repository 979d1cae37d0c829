import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureUser } from "../src/accounts/accounts.ts";
import { passwordProblem } from "../src/accounts/password.ts";
import type { DatabaseHandle } from "../src/db/client.ts";
import { clients, employees, users } from "../src/db/schema.ts";
import { createTestApp, headersFor } from "./support/app.ts";
import { createTestDatabase } from "./support/database.ts";

let database: DatabaseHandle;
let t: Awaited<ReturnType<typeof createTestApp>>;
let admin: Record<string, string>;

beforeAll(async () => {
  database = await createTestDatabase();
  t = await createTestApp(database, { AUTH_IP_LIMIT_PER_MINUTE: "100000" });
  admin = await headersFor(t, "admin");
});
afterAll(async () => {
  await t.app.close();
  await database.close();
});

const COMMON = "This password is one of the most commonly used passwords. Please choose a different one.";
const PERSONAL = "The password must not contain your name or email address.";

async function userCount() {
  return (await database.db.select({ id: users.id }).from(users)).length;
}

describe("one password policy", () => {
  it("refuses common passwords, the person's own name or email, and lengths outside 8–128", () => {
    expect(passwordProblem("password123")).toBe(COMMON);
    expect(passwordProblem("PASSWORD123")).toBe(COMMON);
    expect(passwordProblem("short")).toBe("Password must be at least 8 characters.");
    expect(passwordProblem("x".repeat(129))).toBe("Password must be at most 128 characters.");
    expect(passwordProblem("hannah-likes-tea-2024", { name: "Hannah Whitfield" })).toBe(PERSONAL);
    expect(passwordProblem("tea.whitfield.2024", { email: "h.whitfield@example.com" })).toBe(PERSONAL);
    expect(passwordProblem("ledger-harbor-compass-9", { name: "Hannah Whitfield", email: "h@x.io" })).toBe(
      undefined,
    );
  });

  it("Add Client refuses password123 with the policy's message and creates nothing", async () => {
    const before = await userCount();
    const res = await t.app.inject({
      method: "POST",
      url: "/api/admin/addclient",
      headers: admin,
      payload: {
        clientId: "CL-WEAK",
        firstName: "Weak",
        lastName: "Password",
        email: "weak.password.client@example.com",
        password: "password123",
        role: "client",
        privilege: "View",
        workbookIds: [],
      },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: `password: ${COMMON}`, code: "PASSWORD_POLICY" });
    expect(await userCount()).toBe(before);
    expect(await database.db.select().from(clients).where(eq(clients.clientId, "CL-WEAK"))).toEqual([]);
  });

  it("Add Employee refuses a password made of the person's name and creates nothing", async () => {
    const before = await userCount();
    const res = await t.app.inject({
      method: "POST",
      url: "/api/admin/addemployee",
      headers: admin,
      payload: {
        employeeId: "EM-WEAK",
        firstName: "Rosalind",
        lastName: "Okafor",
        email: "r.okafor@meridian-advisory.example",
        password: "rosalind-okafor-2026",
        role: "employee",
        privilege: "View",
        clientIds: [],
      },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: `password: ${PERSONAL}`, code: "PASSWORD_POLICY" });
    expect(await userCount()).toBe(before);
    expect(await database.db.select().from(employees).where(eq(employees.employeeId, "EM-WEAK"))).toEqual([]);
  });

  it("self sign-up refuses password123 and creates nothing", async () => {
    const before = await userCount();
    const res = await t.post("/api/auth/sign-up/email", "", {
      name: "Weak Signup",
      email: "weak.signup@meridian-advisory.example",
      password: "password123",
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: COMMON, code: "PASSWORD_POLICY" });
    expect(await userCount()).toBe(before);
  });

  it("ADMIN_EMAIL, admin:create and the demo seed (ensureUser) refuse password123", async () => {
    await expect(
      ensureUser(database.db, {
        email: "weak.admin@example.com",
        name: "Administrator",
        password: "password123",
        role: "admin",
        resetExisting: true,
      }),
    ).rejects.toThrow(`weak.admin@example.com: ${COMMON}`);
    expect(await database.db.select().from(users).where(eq(users.email, "weak.admin@example.com"))).toEqual(
      [],
    );
  });

  it("a password reset and a password change refuse password123 and keep the old password", async () => {
    const { email, password } = await t.createUser("client");
    const token = await t.resetTokenFor(email);
    const reset = await t.post("/api/auth/reset-password", "", { token, newPassword: "password123" });
    expect(reset.statusCode).toBe(400);
    expect(reset.json()).toMatchObject({ error: COMMON, code: "PASSWORD_POLICY" });
    // The owner of the token is known: their own address is refused too.
    const own = await t.post("/api/auth/reset-password", "", { token, newPassword: `${email}-2026` });
    expect(own.json()).toMatchObject({ error: PERSONAL });

    const cookie = await t.sessionCookie(email, password);
    const change = await t.post("/api/auth/change-password", cookie, {
      currentPassword: password,
      newPassword: "password123",
    });
    expect(change.statusCode).toBe(400);
    expect(change.json()).toMatchObject({ error: COMMON, code: "PASSWORD_POLICY" });
    expect((await t.signIn(email, password, "10.9.0.1")).statusCode).toBe(200);
    expect((await t.signIn(email, "password123", "10.9.0.2")).statusCode).toBe(401);
  });
});
