import { loadOrCreateLocalSigmaCredentials } from "@portal/sigma";
import { eq, sql } from "drizzle-orm";
import { decodeProtectedHeader, jwtVerify } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "../src/db/client.ts";
import {
  auditLog,
  clients,
  clientWorkbooks,
  provisioningRequests,
  sessions,
  users,
} from "../src/db/schema.ts";
import { createTestApp, headersFor } from "./support/app.ts";
import { createTestDatabase } from "./support/database.ts";

let database: DatabaseHandle;
let t: Awaited<ReturnType<typeof createTestApp>>;
let admin: Record<string, string>;
let seq = 0;
const urlId = () =>
  `Zx${String(++seq).padStart(4, "0")}${Math.random().toString(36).slice(2, 10)}abcdefghij`.slice(0, 22);

beforeAll(async () => {
  database = await createTestDatabase();
  t = await createTestApp(database, { AUTH_IP_LIMIT_PER_MINUTE: "1000" });
  admin = await headersFor(t, "admin");
});
afterAll(async () => {
  await t.app.close();
  await database.close();
});

async function addWorkbook(name: string, team: string) {
  const res = await t.app.inject({
    method: "POST",
    url: "/api/admin/addworkbook",
    headers: admin,
    payload: { workbook_name: `${name}-${urlId()}`, team_name: team },
  });
  expect(res.statusCode).toBe(201);
  return res.json().data as { id: number; workbook_name: string; team_name: string };
}

function addClientPayload(overrides: Record<string, unknown> = {}) {
  const n = ++seq;
  return {
    clientId: `CL-T${n}`,
    firstName: "Grace",
    lastName: `Hopper${n}`,
    email: `grace.hopper${n}@example.com`,
    password: "a-strong-client-passphrase",
    role: "client",
    privilege: "Analyze",
    workbookIds: [] as number[],
    teams: ["Forged Team Name"],
    ...overrides,
  };
}

describe("add client", () => {
  it("creates sign-in, record and assignments, answers the spec's shape and a Sigma registration URL", async () => {
    const a = await addWorkbook("Portfolio-Overview", "Portfolio Clients");
    const b = await addWorkbook("Tax-Center", "Tax Clients");
    const payload = addClientPayload({ workbookIds: [b.id, a.id] });
    const res = await t.app.inject({ method: "POST", url: "/api/admin/addclient", headers: admin, payload });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body.message).toBe("Client registered successfully!");
    expect(body.data.client).toEqual({
      c_id: expect.any(Number),
      client_id: payload.clientId,
      first_name: "Grace",
      last_name: payload.lastName,
      email: payload.email,
      privilege: "Analyze",
      workbook_ids: [a.id, b.id],
      employees: [],
      sync_status: "pending",
      sync_error: null,
      sync_waiting_since: null,
      managed_in_sigma: false,
      two_factor_enabled: false,
    });
    expect(res.body).not.toMatch(/password|argon2/i);

    // The embed URL follows Sigma's documented contract and carries what the server derived.
    const embedUrl = new URL(body.data.embed.embedUrl);
    expect(embedUrl.pathname).toBe(`/local/workbook/${a.workbook_name}`);
    expect(embedUrl.searchParams.get(":embed")).toBe("true");
    const token = embedUrl.searchParams.get(":jwt")!;
    const credentials = await loadOrCreateLocalSigmaCredentials(t.config.dataDir);
    expect(decodeProtectedHeader(token)).toMatchObject({ alg: "HS256", kid: credentials.embedClientId });
    const { payload: claims } = await jwtVerify(token, new TextEncoder().encode(credentials.embedSecret), {
      algorithms: ["HS256"],
    });
    expect(claims).toMatchObject({
      sub: payload.email,
      account_type: "Analyze",
      teams: ["Portfolio Clients", "Tax Clients"],
      user_attributes: { client_id: payload.clientId },
      first_name: "Grace",
      last_name: payload.lastName,
    });
    expect(claims.teams).not.toContain("Forged Team Name");
    // The registration frame loads once, hidden, in the admin's browser: a five-minute session (people's
    // own embeds last SIGMA_EMBED_SESSION_SECONDS); the URL itself works once.
    expect(claims.exp! - claims.iat!).toBeLessThanOrEqual(300);
    expect(claims.exp! - claims.iat!).toBeGreaterThanOrEqual(299);
    expect(typeof claims.jti).toBe("string");

    // The new client signs in with the password the admin set, as a client.
    const signIn = await t.signIn(payload.email, payload.password);
    expect(signIn.statusCode).toBe(200);
    expect(signIn.json().user.role).toBe("client");

    // Audit: the creation with its after-state, and the embed issued; never the password.
    const audit = await database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.targetId, String(body.data.client.c_id)));
    expect(audit.find((r) => r.action === "client.created")?.after).toMatchObject({
      client_id: payload.clientId,
    });
    const issued = await database.db.select().from(auditLog).where(eq(auditLog.action, "embed.issued"));
    expect(issued.some((r) => (r.details as { embedUser: string }).embedUser === payload.email)).toBe(true);
    expect(JSON.stringify(audit)).not.toContain(payload.password);

    // Provisioning for the BI service was recorded with the derived teams.
    const [queued] = await database.db
      .select()
      .from(provisioningRequests)
      .innerJoin(users, eq(users.id, provisioningRequests.userId))
      .where(eq(users.email, payload.email));
    expect(queued?.provisioning_requests.payload).toMatchObject({
      teams: ["Portfolio Clients", "Tax Clients"],
    });
  });

  it("answers embedUrl null when the client has no workbook to register with", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/api/admin/addclient",
      headers: admin,
      payload: addClientPayload(),
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().data.embed).toEqual({ embedUrl: null });
  });

  it("refuses a duplicate email or client ID with 409 and a readable message", async () => {
    const first = addClientPayload();
    expect(
      (await t.app.inject({ method: "POST", url: "/api/admin/addclient", headers: admin, payload: first }))
        .statusCode,
    ).toBe(201);
    const sameEmail = await t.app.inject({
      method: "POST",
      url: "/api/admin/addclient",
      headers: admin,
      payload: addClientPayload({ email: first.email }),
    });
    expect(sameEmail.statusCode).toBe(409);
    expect(sameEmail.json().error).toBe("A user with this email already exists.");
    const sameId = await t.app.inject({
      method: "POST",
      url: "/api/admin/addclient",
      headers: admin,
      payload: addClientPayload({ clientId: first.clientId }),
    });
    expect(sameId.statusCode).toBe(409);
    expect(sameId.json().error).toBe(`Client ID ${first.clientId} is already in use.`);
  });

  it("leaves nothing behind when an assignment insert fails inside the transaction", async () => {
    const w = await addWorkbook("Fault-Injection", "Fault Team");
    await database.db.execute(
      sql.raw(`create or replace function fail_assignment() returns trigger language plpgsql as $$
               begin raise exception 'injected failure'; end; $$`),
    );
    await database.db.execute(
      sql.raw(`create trigger fail_assignment before insert on client_workbooks
               for each row when (new.workbook_id = ${w.id}) execute function fail_assignment()`),
    );
    try {
      const payload = addClientPayload({ workbookIds: [w.id] });
      const before = await database.db.select({ n: sql<number>`count(*)::int` }).from(auditLog);
      const res = await t.app.inject({
        method: "POST",
        url: "/api/admin/addclient",
        headers: admin,
        payload,
      });
      expect(res.statusCode).toBe(500);
      expect(res.json().error).toBe("Something went wrong on our side. Please try again.");
      expect(res.body).not.toContain("injected failure");
      expect(await database.db.select().from(users).where(eq(users.email, payload.email))).toHaveLength(0);
      expect(
        await database.db.select().from(clients).where(eq(clients.clientId, payload.clientId)),
      ).toHaveLength(0);
      expect(
        await database.db.select().from(clientWorkbooks).where(eq(clientWorkbooks.workbookId, w.id)),
      ).toHaveLength(0);
      const after = await database.db.select({ n: sql<number>`count(*)::int` }).from(auditLog);
      expect(after[0]!.n).toBe(before[0]!.n);
    } finally {
      await database.db.execute(sql.raw("drop trigger fail_assignment on client_workbooks"));
    }
  });
});

describe("edit and delete client", () => {
  it("edits the business id and names only; privilege is read-only; unknown cId is 404", async () => {
    const created = (
      await t.app.inject({
        method: "POST",
        url: "/api/admin/addclient",
        headers: admin,
        payload: addClientPayload(),
      })
    ).json().data.client;
    const edit = (body: Record<string, unknown>) =>
      t.app.inject({ method: "PUT", url: "/api/admin/editclient", headers: admin, payload: body });
    const ok = await edit({
      cId: created.c_id,
      clientId: `${created.client_id}-X`,
      firstName: "Ada",
      lastName: "Lovelace",
      privilege: "Analyze",
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({
      message: "Client updated successfully!",
      data: {
        c_id: created.c_id,
        client_id: `${created.client_id}-X`,
        first_name: "Ada",
        last_name: "Lovelace",
        email: created.email,
      },
    });
    const privilege = await edit({
      cId: created.c_id,
      clientId: "CL-ANY",
      firstName: "Ada",
      lastName: "Lovelace",
      privilege: "Build",
    });
    expect(privilege.statusCode).toBe(400);
    expect(privilege.json().error).toBe("A client's privilege cannot be changed on Edit Client.");
    const email = await edit({
      cId: created.c_id,
      clientId: "CL-ANY",
      firstName: "A",
      lastName: "L",
      privilege: "Analyze",
      email: "new@example.com",
    });
    expect(email.statusCode).toBe(400);
    expect(email.json().error).toBe("Unknown field: email.");
    const missing = await edit({
      cId: created.c_id,
      clientId: "",
      firstName: "A",
      lastName: "L",
      privilege: "Analyze",
    });
    expect(missing.json()).toMatchObject({ error: "All fields are required." });
    const unknown = await edit({
      cId: 999_999,
      clientId: "CL-NONE",
      firstName: "A",
      lastName: "L",
      privilege: "Analyze",
    });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error).toBe("Client not found.");

    const audit = await database.db.select().from(auditLog).where(eq(auditLog.action, "client.updated"));
    const row = audit.find((r) => r.targetId === String(created.c_id))!;
    expect(row.before).toMatchObject({ first_name: "Grace" });
    expect(row.after).toMatchObject({ first_name: "Ada" });
    expect(row.actorEmail).toMatch(/^admin-/);
  });

  it("deletes the client and its assignments, disables its sign-in and ends its sessions at once", async () => {
    const w = await addWorkbook("Income-and-Fees", "Income Clients");
    const payload = addClientPayload({ workbookIds: [w.id] });
    const created = (
      await t.app.inject({ method: "POST", url: "/api/admin/addclient", headers: admin, payload })
    ).json().data.client;
    const clientCookie = await t.sessionCookie(payload.email, payload.password);

    const del = await t.app.inject({
      method: "DELETE",
      url: `/api/admin/deleteclient/${created.c_id}`,
      headers: admin,
    });
    expect(del.statusCode).toBe(200);
    expect(
      await database.db.select().from(clientWorkbooks).where(eq(clientWorkbooks.cId, created.c_id)),
    ).toHaveLength(0);
    const [user] = await database.db.select().from(users).where(eq(users.email, payload.email));
    expect(user?.banned).toBe(true);
    expect(await database.db.select().from(sessions).where(eq(sessions.userId, user!.id))).toHaveLength(0);
    const session = await t.app.inject({
      method: "GET",
      url: "/api/auth/get-session",
      headers: { cookie: clientCookie },
    });
    expect(session.json()).toBeNull();
    expect((await t.signIn(payload.email, payload.password)).statusCode).not.toBe(200);

    const again = await t.app.inject({
      method: "DELETE",
      url: `/api/admin/deleteclient/${created.c_id}`,
      headers: admin,
    });
    expect(again.statusCode).toBe(404);

    // The same person can be registered again later, with a fresh password.
    const back = await t.app.inject({
      method: "POST",
      url: "/api/admin/addclient",
      headers: admin,
      payload: { ...payload, clientId: `${payload.clientId}-B`, password: "a-new-start-passphrase" },
    });
    expect(back.statusCode).toBe(201);
    expect((await t.signIn(payload.email, "a-new-start-passphrase")).statusCode).toBe(200);
  });
});

describe("the spec's unprefixed edit-workbook path", () => {
  it("needs an admin like the rest and edits the workbook", async () => {
    const w = await addWorkbook("Renamed-Later", "Old Team");
    const body = { workbook_name: w.workbook_name, team_name: "New Team" };
    expect(
      (await t.app.inject({ method: "PUT", url: `/workbooks/editworkbook/${w.id}`, payload: body }))
        .statusCode,
    ).toBe(401);
    const client = await headersFor(t, "client");
    expect(
      (
        await t.app.inject({
          method: "PUT",
          url: `/workbooks/editworkbook/${w.id}`,
          headers: client,
          payload: body,
        })
      ).statusCode,
    ).toBe(403);
    const res = await t.app.inject({
      method: "PUT",
      url: `/workbooks/editworkbook/${w.id}`,
      headers: admin,
      payload: body,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({ id: w.id, workbook_name: w.workbook_name, team_name: "New Team" });
    const cross = await t.app.inject({
      method: "PUT",
      url: `/workbooks/editworkbook/${w.id}`,
      headers: { ...admin, origin: "https://evil.example" },
      payload: body,
    });
    expect(cross.statusCode).toBe(403);
  });
});
