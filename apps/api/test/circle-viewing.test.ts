import { DEMO_CLIENTS, DEMO_WORKBOOKS } from "@portal/contracts/demo";
import { loadOrCreateLocalSigmaCredentials } from "@portal/sigma";
import { sql, type SQL } from "drizzle-orm";
import { jwtVerify } from "jose";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "../src/db/client.ts";
import { seedDemoData } from "../src/demo/seed.ts";
import { createTestApp, headersFor, ORIGIN } from "./support/app.ts";
import { createTestDatabase } from "./support/database.ts";

// Whose workbooks a person may view (issue 23, decision 020): a delegate sees exactly what a client shared,
// under their own identity; a household's combined view widens a member's own embed.

let database: DatabaseHandle;
let t: Awaited<ReturnType<typeof createTestApp>>;
/** The same database behind a long access cache: only an end date can explain a refusal there. */
let cached: Awaited<ReturnType<typeof createTestApp>>;
let secret: Uint8Array;
const [olivia, marcus] = DEMO_CLIENTS;
const [portfolio, tax] = DEMO_WORKBOOKS;
const cIds: Record<string, number> = {};
let delegate: { email: string; password: string; userId: string };
let delegateHeaders: Record<string, string>;

const query = async <T>(statement: SQL) =>
  ((await database.db.execute(statement)) as unknown as { rows: T[] }).rows;

beforeAll(async () => {
  database = await createTestDatabase();
  t = await createTestApp(database, { AUTH_IP_LIMIT_PER_MINUTE: "10000", ACCESS_CACHE_SECONDS: "0" });
  cached = await createTestApp(database, { AUTH_IP_LIMIT_PER_MINUTE: "10000", ACCESS_CACHE_SECONDS: "60" });
  await seedDemoData(t.auth, database.db);
  secret = new TextEncoder().encode((await loadOrCreateLocalSigmaCredentials(t.config.dataDir)).embedSecret);
  for (const row of await query<{ c_id: number; client_id: string }>(
    sql`select c_id, client_id from clients`,
  )) {
    cIds[row.client_id] = row.c_id;
  }
  delegate = await t.createUser("delegate", { name: "Daniel Reyes" });
  delegateHeaders = { cookie: await t.sessionCookie(delegate.email, delegate.password), origin: ORIGIN };
});
afterAll(async () => {
  await t.app.close();
  await cached.app.close();
  await database.close();
});

beforeEach(async () => {
  await database.db.execute(sql`delete from delegations`);
  await database.db.execute(sql`delete from households`);
});

/** A delegation as the invite and accept routes leave it. */
async function delegation(
  clientId: string,
  userId: string,
  options: { workbooks?: string[]; accepted?: boolean; expiresIn?: string } = {},
): Promise<number> {
  const [row] = await query<{ id: number }>(sql`
    insert into delegations (c_id, user_id, email, name, all_workbooks, accepted_at, expires_at)
    values (${cIds[clientId]}, ${userId}, 'someone@example.com', 'Someone', ${!options.workbooks},
            ${options.accepted === false ? null : sql`now()`},
            ${options.expiresIn ? sql`now() + ${options.expiresIn}::interval` : null})
    returning id`);
  for (const name of options.workbooks ?? []) {
    await database.db.execute(sql`
      insert into delegation_workbooks (delegation_id, workbook_id)
      select ${row!.id}, id from workbooks where workbook_name = ${name}`);
  }
  return row!.id;
}

const embed = (headers: Record<string, string>, payload: Record<string, unknown>, app = t) =>
  app.app.inject({ method: "POST", url: "/api/sigma/provision-and-embed", headers, payload });
const get = (headers: Record<string, string>, url: string, app = t) =>
  app.app.inject({ method: "GET", url, headers });

async function claimsOf(embedUrl: string) {
  const token = new URL(embedUrl).searchParams.get(":jwt")!;
  return (await jwtVerify(token, secret, { algorithms: ["HS256"] })).payload;
}

describe("a delegate", () => {
  it("views only what the client shared, under their own identity and the client's row security", async () => {
    const id = await delegation(olivia.clientId, delegate.userId, { workbooks: [tax.workbookName] });
    const clients = await get(delegateHeaders, "/api/me/clients");
    expect(clients.statusCode).toBe(200);
    expect(clients.json()).toEqual([
      {
        c_id: cIds[olivia.clientId],
        name: `${olivia.firstName} ${olivia.lastName}`,
        self: false,
        expires_at: null,
        workbooks: [expect.objectContaining({ workbook_name: tax.workbookName })],
      },
    ]);
    const own = await get(delegateHeaders, "/api/me/workbooks");
    expect(own.json()).toEqual([]);
    const shared = await get(delegateHeaders, `/api/me/workbooks?client=${cIds[olivia.clientId]}`);
    expect(shared.json().map((w: { workbook_name: string }) => w.workbook_name)).toEqual([tax.workbookName]);

    const res = await embed(delegateHeaders, {
      workbookId: tax.workbookName,
      clientId: cIds[olivia.clientId],
    });
    expect(res.statusCode).toBe(200);
    const claims = await claimsOf(res.json().embedUrl);
    expect(claims).toMatchObject({
      sub: delegate.email,
      account_type: "View",
      user_attributes: { client_id: "", client_ids: olivia.clientId },
    });
    expect(claims.sub).not.toBe(olivia.email);

    const [audit] = await query<{
      actor_email: string;
      target_type: string;
      target_id: string;
      details: unknown;
    }>(
      sql`select actor_email, target_type, target_id, details from audit_log
           where action = 'embed.issued' order by id desc limit 1`,
    );
    expect(audit).toMatchObject({
      actor_email: delegate.email,
      target_type: "client",
      target_id: String(cIds[olivia.clientId]),
      details: { delegationId: id, workbook: tax.workbookName, viewedClient: { email: olivia.email } },
    });
    const [viewed] = await query<{ last_viewed_at: string | null }>(
      sql`select last_viewed_at from delegations where id = ${id}`,
    );
    expect(viewed!.last_viewed_at).not.toBeNull();
  });

  it("answers 404 for a workbook not shared, another client, or no client of theirs", async () => {
    await delegation(olivia.clientId, delegate.userId, { workbooks: [tax.workbookName] });
    const olivias = cIds[olivia.clientId];
    for (const payload of [
      { workbookId: portfolio.workbookName, clientId: olivias },
      { workbookId: tax.workbookName, clientId: cIds[marcus.clientId] },
      { workbookId: tax.workbookName },
      { workbookId: tax.workbookName, clientId: 2_000_000 },
    ]) {
      const res = await embed(delegateHeaders, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(404);
      expect(res.json().error).toBe("Workbook not found.");
    }
    for (const client of [cIds[marcus.clientId], 2_000_000]) {
      const res = await get(delegateHeaders, `/api/me/workbooks?client=${client}`);
      expect(res.statusCode).toBe(404);
      expect(res.json().error).toBe("Client not found.");
    }
    const denied = await query<{ n: number }>(
      sql`select count(*)::int as n from audit_log where action = 'embed.denied' and actor_email = ${delegate.email}`,
    );
    expect(denied[0]!.n).toBeGreaterThanOrEqual(4);
  });

  it("sees nothing of a delegation not yet accepted, ended, or of a client whose sign-in is disabled", async () => {
    const olivias = cIds[olivia.clientId];
    const pending = await delegation(olivia.clientId, delegate.userId, { accepted: false });
    expect((await get(delegateHeaders, "/api/me/clients")).json()).toEqual([]);
    expect(
      (await embed(delegateHeaders, { workbookId: tax.workbookName, clientId: olivias })).statusCode,
    ).toBe(404);
    await database.db.execute(
      sql`update delegations set accepted_at = now(), expires_at = now() - interval '1 second' where id = ${pending}`,
    );
    expect((await get(delegateHeaders, "/api/me/clients")).json()).toEqual([]);
    expect(
      (await embed(delegateHeaders, { workbookId: tax.workbookName, clientId: olivias })).statusCode,
    ).toBe(404);
    await database.db.execute(sql`update delegations set expires_at = null where id = ${pending}`);
    expect(
      (await embed(delegateHeaders, { workbookId: tax.workbookName, clientId: olivias })).statusCode,
    ).toBe(200);
    await database.db.execute(sql`update users set banned = true where email = ${olivia.email}`);
    try {
      expect(
        (await embed(delegateHeaders, { workbookId: tax.workbookName, clientId: olivias })).statusCode,
      ).toBe(404);
    } finally {
      await database.db.execute(sql`update users set banned = false where email = ${olivia.email}`);
    }
  });

  it("loses a workbook the firm takes away from the client, even with all workbooks shared", async () => {
    await delegation(marcus.clientId, delegate.userId);
    const marcuss = cIds[marcus.clientId];
    const before = await get(delegateHeaders, `/api/me/workbooks?client=${marcuss}`);
    const names = before.json().map((w: { workbook_name: string }) => w.workbook_name);
    expect(names).toContain(portfolio.workbookName);
    await database.db.execute(sql`
      delete from client_workbooks where c_id = ${marcuss}
         and workbook_id = (select id from workbooks where workbook_name = ${portfolio.workbookName})`);
    try {
      const after = await get(delegateHeaders, `/api/me/workbooks?client=${marcuss}`);
      expect(after.json().map((w: { workbook_name: string }) => w.workbook_name)).not.toContain(
        portfolio.workbookName,
      );
      expect(
        (await embed(delegateHeaders, { workbookId: portfolio.workbookName, clientId: marcuss })).statusCode,
      ).toBe(404);
    } finally {
      await database.db.execute(sql`
        insert into client_workbooks (c_id, workbook_id)
        select ${marcuss}, id from workbooks where workbook_name = ${portfolio.workbookName}`);
    }
  });

  it("is refused at the end date even while the access cache would still hold the decision", async () => {
    const olivias = cIds[olivia.clientId];
    await delegation(olivia.clientId, delegate.userId, { expiresIn: "1.5 seconds" });
    const headers = { cookie: await cached.sessionCookie(delegate.email, delegate.password), origin: ORIGIN };
    expect(
      (await embed(headers, { workbookId: tax.workbookName, clientId: olivias }, cached)).statusCode,
    ).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 1_600));
    const res = await embed(headers, { workbookId: tax.workbookName, clientId: olivias }, cached);
    expect(res.statusCode).toBe(404);
    expect((await get(headers, `/api/me/workbooks?client=${olivias}`, cached)).statusCode).toBe(404);
  });

  it("refuses a malformed client with a clear 400", async () => {
    for (const url of [
      "/api/me/workbooks?client=abc",
      "/api/me/workbooks?client=0",
      "/api/me/workbooks?client=99999999999",
    ]) {
      const res = await get(delegateHeaders, url);
      expect(res.statusCode, url).toBe(400);
      expect(res.json().error).toMatch(/client/);
    }
    for (const clientId of ["7", 0, -1, 1.5, null]) {
      const res = await embed(delegateHeaders, { workbookId: tax.workbookName, clientId });
      expect(res.statusCode, String(clientId)).toBe(400);
    }
  });
});

describe("a client who is also a delegate", () => {
  it("lists themselves first, keeps their own identity for their own, and views the other client as a delegate", async () => {
    await delegation(olivia.clientId, await userIdOf(marcus.email), { workbooks: [tax.workbookName] });
    const headers = { cookie: await t.sessionCookie(marcus.email, marcus.password), origin: ORIGIN };
    const clients = (await get(headers, "/api/me/clients")).json();
    expect(clients.map((c: { c_id: number; self: boolean }) => [c.c_id, c.self])).toEqual([
      [cIds[marcus.clientId], true],
      [cIds[olivia.clientId], false],
    ]);
    const own = await embed(headers, { workbookId: tax.workbookName, clientId: cIds[marcus.clientId] });
    expect((await claimsOf(own.json().embedUrl)).user_attributes).toEqual({
      client_id: marcus.clientId,
      client_ids: "",
    });
    const theirs = await embed(headers, { workbookId: tax.workbookName, clientId: cIds[olivia.clientId] });
    const claims = await claimsOf(theirs.json().embedUrl);
    expect(claims).toMatchObject({ sub: marcus.email, account_type: "View" });
    expect(claims.user_attributes).toEqual({ client_id: "", client_ids: olivia.clientId });
  });

  it("an admin views no client through the client parameter", async () => {
    const admin = await headersFor(t, "admin");
    expect((await get(admin, `/api/me/workbooks?client=${cIds[olivia.clientId]}`)).statusCode).toBe(404);
    expect((await get(admin, "/api/me/clients")).json()).toEqual([]);
  });
});

async function userIdOf(email: string) {
  const [row] = await query<{ id: string }>(sql`select id from users where email = ${email}`);
  return row!.id;
}

describe("a household", () => {
  it("with the combined view, a member's own embed carries every member's client id; off or left, only their own", async () => {
    const [household] = await query<{ id: number }>(
      sql`insert into households (name, combined_view) values ('Bennett household', true) returning id`,
    );
    await database.db.execute(sql`
      insert into household_members (household_id, c_id)
      values (${household!.id}, ${cIds[olivia.clientId]}), (${household!.id}, ${cIds[marcus.clientId]})`);
    const headers = { cookie: await t.sessionCookie(olivia.email, olivia.password), origin: ORIGIN };
    const attributes = async () =>
      (await claimsOf((await embed(headers, { workbookId: tax.workbookName })).json().embedUrl))
        .user_attributes;
    expect(await attributes()).toEqual({
      client_id: olivia.clientId,
      client_ids: [olivia.clientId, marcus.clientId].sort().join(","),
    });
    await database.db.execute(sql`update households set combined_view = false`);
    expect(await attributes()).toEqual({ client_id: olivia.clientId, client_ids: "" });
    await database.db.execute(sql`update households set combined_view = true`);
    await database.db.execute(sql`delete from household_members where c_id = ${cIds[olivia.clientId]}`);
    expect(await attributes()).toEqual({ client_id: olivia.clientId, client_ids: "" });
  });

  it("does not widen what a delegate of a member sees", async () => {
    const [household] = await query<{ id: number }>(
      sql`insert into households (name, combined_view) values ('Bennett household', true) returning id`,
    );
    await database.db.execute(sql`
      insert into household_members (household_id, c_id)
      values (${household!.id}, ${cIds[olivia.clientId]}), (${household!.id}, ${cIds[marcus.clientId]})`);
    await delegation(olivia.clientId, delegate.userId);
    const res = await embed(delegateHeaders, {
      workbookId: tax.workbookName,
      clientId: cIds[olivia.clientId],
    });
    expect((await claimsOf(res.json().embedUrl)).user_attributes).toEqual({
      client_id: "",
      client_ids: olivia.clientId,
    });
  });
});
