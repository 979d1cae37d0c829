import { sql, type SQL } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "../src/db/client.ts";
import { createTestApp, headersFor, ORIGIN } from "./support/app.ts";
import { createTestDatabase } from "./support/database.ts";
import { startSmtpServer } from "./support/smtp.ts";

let database: DatabaseHandle;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let t: Awaited<ReturnType<typeof createTestApp>>;
let admin: Record<string, string>;
/** Three workbooks: the clients below are assigned the first two, never the third. */
let wb: { id: number; workbook_name: string; team_name: string }[];
let n = 0;

const json = { origin: ORIGIN, "content-type": "application/json" };
const nextYear = new Date().getUTCFullYear() + 1;

beforeAll(async () => {
  database = await createTestDatabase();
  smtp = await startSmtpServer();
  t = await createTestApp(database, { SMTP_URL: smtp.url, AUTH_IP_LIMIT_PER_MINUTE: "10000" });
  admin = await headersFor(t, "admin");
  wb = [];
  for (const [name, team] of [
    ["Circle-Overview-abcdefghijklmnopqrstuv", "Circle Overview"],
    ["Circle-Taxes-bcdefghijklmnopqrstuvw", "Circle Taxes"],
    ["Circle-Other-cdefghijklmnopqrstuvwx", "Circle Other"],
  ] as const) {
    const res = await t.app.inject({
      method: "POST",
      url: "/api/admin/addworkbook",
      headers: admin,
      payload: { workbook_name: name, team_name: team },
    });
    wb.push(res.json().data);
  }
});
afterAll(async () => {
  await t.app.close();
  await smtp.close();
  await database.close();
});

const query = async <T>(statement: SQL) =>
  ((await database.db.execute(statement)) as unknown as { rows: T[] }).rows;

interface Client {
  cId: number;
  email: string;
  password: string;
  headers: Record<string, string>;
}

/** A client added by the firm with a password, signed in. */
async function addClient(firstName: string, lastName: string): Promise<Client> {
  n += 1;
  const email = `${firstName}.${lastName}${n}@example.com`.toLowerCase();
  const password = "tidal-granite-passphrase";
  const res = await t.app.inject({
    method: "POST",
    url: "/api/admin/addclient",
    headers: admin,
    payload: {
      clientId: `CL-DEL${n}`,
      firstName,
      lastName,
      email,
      password,
      role: "client",
      privilege: "View",
      workbookIds: [wb[0]!.id, wb[1]!.id],
    },
  });
  expect(res.statusCode, res.body).toBe(201);
  const cookie = await t.sessionCookie(email, password);
  return { cId: res.json().data.client.c_id, email, password, headers: { cookie, origin: ORIGIN } };
}

const address = (name: string) => `${name}${++n}@example.net`;

const invite = (who: Record<string, string>, payload: unknown) =>
  t.app.inject({
    method: "POST",
    url: "/api/me/delegates",
    headers: { ...who, "content-type": "application/json" },
    payload: payload as object,
  });
const list = (who: Record<string, string>) =>
  t.app.inject({ method: "GET", url: "/api/me/delegates", headers: who });
const change = (who: Record<string, string>, id: number | string, payload: unknown) =>
  t.app.inject({
    method: "PATCH",
    url: `/api/me/delegates/${id}`,
    headers: { ...who, "content-type": "application/json" },
    payload: payload as object,
  });
const remove = (who: Record<string, string>, id: number | string) =>
  t.app.inject({ method: "DELETE", url: `/api/me/delegates/${id}`, headers: who });
const lookup = (token: string) =>
  t.app.inject({ method: "POST", url: "/api/invitations/lookup", headers: json, payload: { token } });
const accept = (token: string, password?: string) =>
  t.app.inject({
    method: "POST",
    url: "/api/invitations/accept",
    headers: json,
    payload: password === undefined ? { token } : { token, password },
  });
const setPolicy = (clientsMayInvite: boolean) =>
  t.app.inject({
    method: "PUT",
    url: "/api/admin/settings/delegation",
    headers: admin,
    payload: { clientsMayInvite },
  });

/** The token of the latest invitation mailed to the address, and the mail. */
async function mailedToken(email: string) {
  const mail = await smtp.nextMailTo(email);
  const link = new URL(mail.text.match(/https?:\/\/\S+\/invitation\?token=\S+/)![0]);
  expect(link.origin).toBe(ORIGIN);
  return { token: link.searchParams.get("token")!, mail };
}

/** Invites and accepts (setting a password when the address has none); answers the delegate's id. */
async function activeDelegate(client: Client, email: string, name: string, extra: object = {}) {
  const res = await invite(client.headers, { email, name, ...extra });
  expect(res.statusCode, res.body).toBe(201);
  const { token } = await mailedToken(email);
  const hasPassword = (await lookup(token)).json().hasPassword as boolean;
  const accepted = await accept(token, hasPassword ? undefined : "lantern-meadow-orchard");
  expect(accepted.statusCode, accepted.body).toBe(200);
  return res.json().delegate.id as number;
}

/** Everything a refused request could have written. */
async function written() {
  const [counts] = await query<Record<string, number>>(sql`
    select (select count(*)::int from users) as users,
           (select count(*)::int from delegations) as delegations,
           (select count(*)::int from delegation_workbooks) as shared,
           (select count(*)::int from invitations) as invitations,
           (select count(*)::int from audit_log where action like 'delegate.%') as audited,
           (select coalesce(json_agg(json_build_object('id', id, 'all', all_workbooks, 'ends', expires_at) order by id), '[]'::json)
              from delegations) as terms`);
  return counts;
}

const auditOf = (action: string, cId: number) =>
  query<Record<string, unknown>>(sql`
    select actor_email, target_type, target_id, before, after, details from audit_log
     where action = ${action} and target_id = ${String(cId)} order by id`);

describe("inviting a delegate", () => {
  it("gives a new address an account without a password, mails a link in the client's name, and shares nothing yet", async () => {
    const olivia = await addClient("Olivia", "Bennett");
    const email = address("daniel.reyes");
    const res = await invite(olivia.headers, {
      email: email.toUpperCase(),
      name: "  Daniel Reyes ",
      workbookIds: [wb[0]!.id],
    });
    expect(res.statusCode, res.body).toBe(201);
    const delegate = res.json().delegate;
    expect(res.json()).toEqual({
      message: "Invitation sent to Daniel Reyes.",
      delegate: {
        id: expect.any(Number),
        name: "Daniel Reyes",
        email,
        status: "invited",
        all_workbooks: false,
        workbook_ids: [wb[0]!.id],
        expires_at: null,
        invited_at: expect.any(String),
        accepted_at: null,
        last_viewed_at: null,
      },
    });

    const [account] = await query<{ role: string; credentials: number }>(sql`
      select u.role, (select count(*)::int from accounts a where a.user_id = u.id) as credentials
        from users u where u.email = ${email}`);
    expect(account).toEqual({ role: "delegate", credentials: 0 });
    const [link] = await query<{ kind: string; person_id: number }>(
      sql`select kind, person_id from invitations where user_id = (select id from users where email = ${email})`,
    );
    expect(link).toEqual({ kind: "delegate", person_id: delegate.id });

    const { token, mail } = await mailedToken(email);
    expect(mail.subject).toBe("Olivia Bennett invited you to view their workbooks at Meridian Tax & Wealth");
    expect(mail.text).toContain("Hello Daniel,");
    expect(mail.html).toContain("Olivia Bennett invited you to view their workbooks");

    expect(await auditOf("delegate.invited", olivia.cId)).toEqual([
      {
        actor_email: olivia.email,
        target_type: "client",
        target_id: String(olivia.cId),
        before: null,
        after: null,
        details: {
          delegationId: delegate.id,
          email,
          name: "Daniel Reyes",
          workbookIds: [wb[0]!.id],
          expiresAt: null,
        },
      },
    ]);
    // Nothing for the BI service until the delegation is accepted.
    expect(await query(sql`select 1 from provisioning_requests where subject = ${email}`)).toEqual([]);

    expect((await lookup(token)).json()).toEqual({
      firstName: "Daniel",
      email,
      kind: "delegate",
      expiresAt: expect.any(String),
      twoStepRequired: false,
      invitedBy: "Olivia Bennett",
      hasPassword: false,
    });
  });

  it("answers the same for an address that already signs in, and changes nothing of that account", async () => {
    const olivia = await addClient("Olivia", "Bennett");
    const priya = await addClient("Priya", "Shah");
    const fresh = await invite(olivia.headers, { email: address("new.person"), name: "New Person" });
    const existing = await invite(olivia.headers, { email: priya.email, name: "Priya Shah" });
    expect(existing.statusCode).toBe(201);
    expect(existing.json().message).toBe("Invitation sent to Priya Shah.");
    expect(Object.keys(existing.json().delegate).sort()).toEqual(Object.keys(fresh.json().delegate).sort());
    expect(existing.json().delegate).toMatchObject({
      status: "invited",
      all_workbooks: true,
      workbook_ids: [],
    });
    const [account] = await query<{ role: string }>(sql`select role from users where email = ${priya.email}`);
    expect(account!.role).toBe("client");
    expect((await t.signIn(priya.email, priya.password)).statusCode).toBe(200);
    await smtp.nextMailTo(existing.json().delegate.email);
    await smtp.nextMailTo(fresh.json().delegate.email);
  });

  it("refuses an address that is already a delegate of this client with 409, and invites it for another client", async () => {
    const olivia = await addClient("Olivia", "Bennett");
    const other = await addClient("Oscar", "Bennett");
    const email = address("twice");
    expect((await invite(olivia.headers, { email, name: "Twice Asked" })).statusCode).toBe(201);
    const before = await written();
    const again = await invite(olivia.headers, { email: email.toUpperCase(), name: "Twice Again" });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ error: expect.stringContaining("already one of your delegates") });
    expect(await written()).toEqual(before);
    expect((await invite(other.headers, { email, name: "Twice Asked" })).statusCode).toBe(201);
    expect(await query(sql`select count(*)::int as n from users where email = ${email}`)).toEqual([{ n: 1 }]);
  });

  it("caps one client's people with access at 20, so an account cannot mail strangers without end", async () => {
    const client = await addClient("Cara", "Many");
    for (let i = 0; i < 20; i++) {
      const res = await invite(client.headers, { email: address("many"), name: `Many ${i}` });
      expect(res.statusCode, res.body).toBe(201);
    }
    const before = await written();
    const refused = await invite(client.headers, { email: address("many"), name: "One Too Many" });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error).toMatch(/given 20 people access already/);
    expect(await written()).toEqual(before);
    // Removing one makes room again.
    const [first] = (await list(client.headers)).json().delegates as { id: number }[];
    expect((await remove(client.headers, first!.id)).statusCode).toBe(200);
    expect((await invite(client.headers, { email: address("many"), name: "Room Again" })).statusCode).toBe(
      201,
    );
  });
});

describe("accepting a delegate's invitation", () => {
  it("needs a password from an address without one, then activates the delegation and queues the BI member", async () => {
    const olivia = await addClient("Olivia", "Bennett");
    const email = address("daniel.reyes");
    const id = (
      await invite(olivia.headers, { email, name: "Daniel Reyes", workbookIds: [wb[1]!.id] })
    ).json().delegate.id as number;
    const { token } = await mailedToken(email);

    const missing = await accept(token);
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({ code: "INVALID_INPUT", error: "Password is required." });
    const weak = await accept(token, "password123");
    expect(weak.statusCode).toBe(400);
    expect(weak.json().code).toBe("PASSWORD_POLICY");
    expect((await list(olivia.headers)).json().delegates[0].status).toBe("invited");

    const accepted = await accept(token, "harbour-lantern-orchard");
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(accepted.json()).toEqual({
      message: "Your password is set. Signing you in...",
      email,
      twoStepRequired: false,
    });
    expect((await t.signIn(email, "harbour-lantern-orchard")).statusCode).toBe(200);
    const listed = (await list(olivia.headers)).json().delegates;
    expect(listed).toEqual([
      expect.objectContaining({ id, status: "active", accepted_at: expect.any(String) }),
    ]);

    const [delegateUser] = await query<{ id: string }>(sql`select id from users where email = ${email}`);
    expect(await auditOf("delegate.accepted", olivia.cId)).toEqual([
      {
        actor_email: email,
        target_type: "client",
        target_id: String(olivia.cId),
        before: null,
        after: null,
        details: { delegationId: id, email },
      },
    ]);
    expect(
      await query(sql`select actor_user_id, target_type, target_id from audit_log
                       where action = 'invitation.accepted' and outcome = 'success' and actor_email = ${email}`),
    ).toEqual([{ actor_user_id: delegateUser!.id, target_type: "delegate", target_id: String(id) }]);
    const queued = await query<{ kind: string; payload: { teams: string[] } }>(
      sql`select kind, payload from provisioning_requests where subject = ${email} order by seq`,
    );
    expect(queued.map((q) => q.kind)).toEqual(["member.upsert"]);
    expect(queued[0]!.payload.teams).toEqual([wb[1]!.team_name]);

    // Used once.
    expect((await accept(token, "another-fine-passphrase")).json().code).toBe("INVITATION_USED");
  });

  it("needs no password from an address that has one, refuses one sent anyway, and keeps the old one", async () => {
    const olivia = await addClient("Olivia", "Bennett");
    const priya = await addClient("Priya", "Shah");
    const id = (await invite(olivia.headers, { email: priya.email, name: "Priya Shah" })).json().delegate
      .id as number;
    const { token } = await mailedToken(priya.email);
    expect((await lookup(token)).json()).toMatchObject({
      kind: "delegate",
      invitedBy: "Olivia Bennett",
      hasPassword: true,
    });

    const withPassword = await accept(token, "a-brand-new-passphrase");
    expect(withPassword.statusCode).toBe(400);
    expect(withPassword.json().error).toContain("You already have a password");
    expect((await list(olivia.headers)).json().delegates[0].status).toBe("invited");

    const accepted = await accept(token);
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(accepted.json()).toEqual({
      message: "Invitation accepted. Sign in with your password to view Olivia Bennett's workbooks.",
      email: priya.email,
      twoStepRequired: false,
    });
    expect((await t.signIn(priya.email, priya.password)).statusCode).toBe(200);
    expect((await t.signIn(priya.email, "a-brand-new-passphrase")).statusCode).toBe(401);
    const [role] = await query<{ role: string }>(sql`select role from users where email = ${priya.email}`);
    expect(role!.role).toBe("client");
    expect((await list(olivia.headers)).json().delegates).toEqual([
      expect.objectContaining({ id, status: "active" }),
    ]);
  });

  it("sends a firm staff address the invitation like any other, and its link then refuses to be accepted", async () => {
    const olivia = await addClient("Olivia", "Bennett");
    const staff = await t.createUser("admin");
    const res = await invite(olivia.headers, { email: staff.email, name: "Staff Member" });
    expect(res.statusCode).toBe(201);
    expect(res.json().message).toBe("Invitation sent to Staff Member.");
    const { token } = await mailedToken(staff.email);
    for (const answer of [await lookup(token), await accept(token)]) {
      expect(answer.statusCode).toBe(403);
      expect(answer.json()).toMatchObject({
        code: "FORBIDDEN",
        error: expect.stringContaining("staff account"),
      });
    }
    expect((await list(olivia.headers)).json().delegates[0].status).toBe("invited");
    const [role] = await query<{ role: string }>(sql`select role from users where email = ${staff.email}`);
    expect(role!.role).toBe("admin");
  });
});

describe("the client's list, changes and removal", () => {
  it("lists delegates with their status, the end date deciding 'expired' by the database's clock", async () => {
    const olivia = await addClient("Olivia", "Bennett");
    const active = await activeDelegate(olivia, address("active"), "Active Person");
    const invited = (
      await invite(olivia.headers, { email: address("pending"), name: "Pending Person" })
    ).json().delegate.id as number;
    const ending = await activeDelegate(olivia, address("ending"), "Ending Person", {
      expiresAt: `${nextYear}-06-30`,
    });
    await database.db.execute(
      sql`update delegations set expires_at = now() - interval '1 second' where id = ${ending}`,
    );
    const res = await list(olivia.headers);
    expect(res.statusCode).toBe(200);
    expect(res.headers["cache-control"]).toBe("no-store");
    expect(res.json().canInvite).toBe(true);
    expect(res.json().delegates.map((d: { id: number; status: string }) => [d.id, d.status])).toEqual([
      [active, "active"],
      [invited, "invited"],
      [ending, "expired"],
    ]);
  });

  it("changes what is shared and the end date, audited before and after, and queues the delegate's BI member", async () => {
    const olivia = await addClient("Olivia", "Bennett");
    const email = address("changing");
    const id = await activeDelegate(olivia, email, "Changing Person", { workbookIds: [wb[0]!.id] });
    const queuedBefore = await query(sql`select 1 from provisioning_requests where subject = ${email}`);

    const both = await change(olivia.headers, id, { workbookIds: [wb[1]!.id, wb[0]!.id, wb[1]!.id] });
    expect(both.statusCode, both.body).toBe(200);
    expect(both.json()).toEqual({
      message: "Changing Person's access was updated.",
      delegate: expect.objectContaining({ id, all_workbooks: false, workbook_ids: [wb[0]!.id, wb[1]!.id] }),
    });
    const ends = await change(olivia.headers, id, { expiresAt: `${nextYear}-03-31` });
    expect(ends.json().delegate).toMatchObject({ expires_at: `${nextYear}-03-31T23:59:59.999Z` });
    const all = await change(olivia.headers, id, { workbookIds: null, expiresAt: null });
    expect(all.json().delegate).toMatchObject({ all_workbooks: true, workbook_ids: [], expires_at: null });
    expect(await query(sql`select 1 from delegation_workbooks where delegation_id = ${id}`)).toEqual([]);

    const audit = await auditOf("delegate.changed", olivia.cId);
    expect(audit.map((a) => [a.before, a.after])).toEqual([
      [
        { workbookIds: [wb[0]!.id], expiresAt: null },
        { workbookIds: [wb[0]!.id, wb[1]!.id], expiresAt: null },
      ],
      [
        { workbookIds: [wb[0]!.id, wb[1]!.id], expiresAt: null },
        { workbookIds: [wb[0]!.id, wb[1]!.id], expiresAt: `${nextYear}-03-31T23:59:59.999Z` },
      ],
      [
        { workbookIds: [wb[0]!.id, wb[1]!.id], expiresAt: `${nextYear}-03-31T23:59:59.999Z` },
        { workbookIds: "all", expiresAt: null },
      ],
    ]);
    expect(audit[0]).toMatchObject({ actor_email: olivia.email, details: { delegationId: id, email } });
    const queued = await query(sql`select 1 from provisioning_requests where subject = ${email}`);
    expect(queued.length).toBe(queuedBefore.length + 3);
  });

  it("removes a delegate: the row and what it shared are gone, its open link is withdrawn, audited", async () => {
    const olivia = await addClient("Olivia", "Bennett");
    const email = address("removed");
    const id = (
      await invite(olivia.headers, { email, name: "Removed Person", workbookIds: [wb[0]!.id] })
    ).json().delegate.id as number;
    const { token } = await mailedToken(email);
    const res = await remove(olivia.headers, id);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: "Removed Person can no longer view your workbooks." });
    expect(await query(sql`select 1 from delegations where id = ${id}`)).toEqual([]);
    expect(await query(sql`select 1 from delegation_workbooks where delegation_id = ${id}`)).toEqual([]);
    for (const answer of [await lookup(token), await accept(token, "lantern-meadow-orchard")]) {
      expect(answer.statusCode).toBe(410);
      expect(answer.json()).toMatchObject({
        code: "INVITATION_REVOKED",
        error: expect.stringContaining("withdrawn"),
      });
    }
    expect(await auditOf("delegate.revoked", olivia.cId)).toEqual([
      {
        actor_email: olivia.email,
        target_type: "client",
        target_id: String(olivia.cId),
        before: { workbookIds: [wb[0]!.id], expiresAt: null, status: "invited" },
        after: null,
        details: { delegationId: id, email, name: "Removed Person" },
      },
    ]);
    expect((await remove(olivia.headers, id)).statusCode).toBe(404);
  });

  it("queues the BI member of an accepted delegate when it is removed", async () => {
    const olivia = await addClient("Olivia", "Bennett");
    const email = address("accepted.removed");
    const id = await activeDelegate(olivia, email, "Accepted Removed");
    const before = (await query(sql`select 1 from provisioning_requests where subject = ${email}`)).length;
    expect((await remove(olivia.headers, id)).statusCode).toBe(200);
    const after = await query<{ payload: { teams?: string[] } }>(
      sql`select payload from provisioning_requests where subject = ${email} order by seq`,
    );
    expect(after.length).toBe(before + 1);
    expect(after.at(-1)!.payload.teams ?? []).toEqual([]);
  });

  it("never shows or touches another client's delegates (404), and changes nothing", async () => {
    const olivia = await addClient("Olivia", "Bennett");
    const mallory = await addClient("Mallory", "Other");
    const id = (await invite(olivia.headers, { email: address("private"), name: "Private Person" })).json()
      .delegate.id as number;
    expect((await list(mallory.headers)).json()).toEqual({ canInvite: true, delegates: [] });
    const before = await written();
    for (const answer of [
      await change(mallory.headers, id, { workbookIds: null }),
      await remove(mallory.headers, id),
      await change(mallory.headers, 999_999, { workbookIds: null }),
    ]) {
      expect(answer.statusCode).toBe(404);
      expect(answer.json()).toMatchObject({ code: "NOT_FOUND", error: "Delegate not found." });
    }
    expect(await written()).toEqual(before);
  });
});

describe("who may use /api/me/delegates", () => {
  it("refuses a delegate, an employee and an admin the list and invitations (403), and finds them no delegate (404)", async () => {
    const olivia = await addClient("Olivia", "Bennett");
    const email = address("delegate.only");
    const id = await activeDelegate(olivia, email, "Delegate Only");
    const asDelegate = { cookie: await t.sessionCookie(email, "lantern-meadow-orchard"), origin: ORIGIN };
    const others = [asDelegate, await headersFor(t, "employee"), admin, await headersFor(t, "client")];
    const before = await written();
    for (const who of others) {
      const listed = await list(who);
      expect(listed.statusCode).toBe(403);
      expect(listed.json()).toMatchObject({ code: "FORBIDDEN", error: expect.any(String) });
      expect((await invite(who, { email: address("via.delegate"), name: "Nope" })).statusCode).toBe(403);
      expect((await change(who, id, { workbookIds: null })).statusCode).toBe(404);
      expect((await remove(who, id)).statusCode).toBe(404);
    }
    expect(await written()).toEqual(before);
    expect((await t.app.inject({ method: "GET", url: "/api/me/delegates" })).statusCode).toBe(401);
  });
});

describe("bad input", () => {
  let olivia: Client;
  beforeAll(async () => {
    olivia = await addClient("Olivia", "Bennett");
  });

  it.each([
    ["an unknown field", { email: "u@example.net", name: "U", role: "admin" }, "Unknown field: role."],
    ["a blank name", { email: "u@example.net", name: "   " }, "All fields are required."],
    ["a bad email", { email: "not-an-email", name: "U" }, "Enter a valid email address."],
    ["a NUL character", { email: "u@example.net", name: "Da\u0000niel" }, "NUL characters"],
    ["an empty workbook list", { email: "u@example.net", name: "U", workbookIds: [] }, "Choose at least one"],
    ["an end date in the past", { email: "u@example.net", name: "U", expiresAt: "2020-01-01" }, "future"],
    [
      "a workbook that is not the client's",
      { email: "u@example.net", name: "U" },
      "is not among your workbooks",
    ],
    ["the client's own address", { email: "", name: "Myself" }, "You cannot invite yourself"],
  ])("refuses an invitation with %s (400) and writes nothing", async (name, payload, message) => {
    const body: Record<string, unknown> = { ...payload };
    if (name.startsWith("a workbook")) body.workbookIds = [wb[0]!.id, wb[2]!.id];
    if (name.startsWith("the client's")) body.email = olivia.email;
    const before = await written();
    const res = await invite(olivia.headers, body);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().error).toContain(message);
    if (name.startsWith("a workbook")) expect(res.json().error).toContain(`Workbook ${wb[2]!.id}`);
    expect(await written()).toEqual(before);
  });

  it.each([
    ["nothing to change", {}, "Nothing to change"],
    ["an unknown field", { workbookIds: null, name: "X" }, "Unknown field: name."],
    ["an end date in the past", { expiresAt: "2001-02-03T04:05:06Z" }, "future"],
    ["an end date that is not a date", { expiresAt: "soon" }, "expiresAt must be a date"],
    ["a workbook that is not the client's", { workbookIds: [2_000_000] }, "not among your workbooks"],
    ["an empty workbook list", { workbookIds: [] }, "Choose at least one"],
  ])("refuses a change with %s (400) and writes nothing", async (_name, payload, message) => {
    const id = (await invite(olivia.headers, { email: address("target"), name: "Target" })).json().delegate
      .id;
    const before = await written();
    const res = await change(olivia.headers, id, payload);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().error).toContain(message);
    expect(await written()).toEqual(before);
  });

  it.each(["007", "0x10", "2147483648", "1.0"])("refuses the id %s with a readable 400", async (id) => {
    for (const res of [
      await change(olivia.headers, id, { workbookIds: null }),
      await remove(olivia.headers, id),
    ]) {
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: "INVALID_INPUT", error: expect.stringMatching(/^id /) });
    }
  });
});

describe("the firm's setting", () => {
  it("turned off, refuses a client's invitation (403) while existing delegates, removal and the admin's invitations keep working", async () => {
    const olivia = await addClient("Olivia", "Bennett");
    const id = (await invite(olivia.headers, { email: address("kept"), name: "Kept Person" })).json().delegate
      .id;
    expect(
      (await t.app.inject({ method: "GET", url: "/api/admin/settings/delegation", headers: admin })).json(),
    ).toEqual({ clientsMayInvite: true });
    const off = await setPolicy(false);
    expect(off.statusCode).toBe(200);
    expect(off.json()).toEqual({ clientsMayInvite: false });
    try {
      expect((await list(olivia.headers)).json().canInvite).toBe(false);
      const before = await written();
      const refused = await invite(olivia.headers, { email: address("refused"), name: "Refused Person" });
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toMatchObject({
        code: "FORBIDDEN",
        error: expect.stringContaining("turned off"),
      });
      expect(await written()).toEqual(before);

      expect((await change(olivia.headers, id, { expiresAt: `${nextYear}-01-15` })).statusCode).toBe(200);
      const byAdmin = await t.app.inject({
        method: "POST",
        url: `/api/admin/clients/${olivia.cId}/delegates`,
        headers: admin,
        payload: { email: address("by.admin"), name: "Admin Invited" },
      });
      expect(byAdmin.statusCode).toBe(201);
      expect((await remove(olivia.headers, id)).statusCode).toBe(200);
    } finally {
      expect((await setPolicy(true)).statusCode).toBe(200);
    }
    const audit = await query<{ before: unknown; after: unknown }>(
      sql`select before, after from audit_log where action = 'policy.updated' order by id`,
    );
    expect(audit.slice(-2)).toEqual([
      { before: { clientsMayInvite: true }, after: { clientsMayInvite: false } },
      { before: { clientsMayInvite: false }, after: { clientsMayInvite: true } },
    ]);
    expect((await list(olivia.headers)).json().canInvite).toBe(true);
  });

  it("is an admin's only, and refuses a body that is not one boolean", async () => {
    const client = await headersFor(t, "client");
    expect(
      (await t.app.inject({ method: "GET", url: "/api/admin/settings/delegation", headers: client }))
        .statusCode,
    ).toBe(403);
    for (const payload of [{}, { clientsMayInvite: "no" }, { clientsMayInvite: true, extra: 1 }]) {
      const res = await t.app.inject({
        method: "PUT",
        url: "/api/admin/settings/delegation",
        headers: admin,
        payload,
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toMatch(/\w/);
    }
  });
});

describe("the admin's view of a client's delegates", () => {
  it("lists, invites (audited as the admin) and removes; an unknown client or another client's delegate is 404", async () => {
    const olivia = await addClient("Olivia", "Bennett");
    const oscar = await addClient("Oscar", "Bennett");
    const base = `/api/admin/clients/${olivia.cId}/delegates`;
    const email = address("admin.invited");
    const created = await t.app.inject({
      method: "POST",
      url: base,
      headers: admin,
      payload: { email, name: "Admin Invited", workbookIds: [wb[1]!.id], expiresAt: `${nextYear}-12-31` },
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json().message).toBe("Invitation sent to Admin Invited.");
    const id = created.json().delegate.id as number;
    const { mail } = await mailedToken(email);
    expect(mail.subject).toContain("Olivia Bennett invited you");
    const [invited] = await auditOf("delegate.invited", olivia.cId);
    expect(invited).toMatchObject({
      actor_email: expect.stringMatching(/^admin-/),
      details: { workbookIds: [wb[1]!.id], expiresAt: `${nextYear}-12-31T23:59:59.999Z` },
    });

    const listed = await t.app.inject({ method: "GET", url: base, headers: admin });
    expect(listed.json()).toEqual([
      expect.objectContaining({ id, name: "Admin Invited", status: "invited" }),
    ]);
    expect((await list(olivia.headers)).json().delegates).toEqual(listed.json());

    const notMine = await t.app.inject({
      method: "DELETE",
      url: `/api/admin/clients/${oscar.cId}/delegates/${id}`,
      headers: admin,
    });
    expect(notMine.statusCode).toBe(404);
    expect(notMine.json().error).toBe("Delegate not found.");
    for (const res of [
      await t.app.inject({ method: "GET", url: "/api/admin/clients/999999/delegates", headers: admin }),
      await t.app.inject({
        method: "POST",
        url: "/api/admin/clients/999999/delegates",
        headers: admin,
        payload: { email: address("nobody"), name: "Nobody" },
      }),
      await t.app.inject({
        method: "DELETE",
        url: `/api/admin/clients/999999/delegates/${id}`,
        headers: admin,
      }),
    ]) {
      expect(res.statusCode).toBe(404);
      expect(res.json().error).toBe("Client not found.");
    }
    const self = await t.app.inject({
      method: "POST",
      url: base,
      headers: admin,
      payload: { email: olivia.email, name: "Olivia" },
    });
    expect(self.statusCode).toBe(400);
    expect(self.json().error).toBe("Olivia Bennett cannot be their own delegate.");

    const removed = await t.app.inject({ method: "DELETE", url: `${base}/${id}`, headers: admin });
    expect(removed.statusCode).toBe(200);
    expect(removed.json().message).toBe("Admin Invited can no longer view Olivia Bennett's workbooks.");
    expect((await t.app.inject({ method: "GET", url: base, headers: admin })).json()).toEqual([]);
    expect((await auditOf("delegate.revoked", olivia.cId))[0]).toMatchObject({
      actor_email: expect.stringMatching(/^admin-/),
    });
  });
});

describe("a delegate who becomes a client", () => {
  it("keeps their account and password when the firm adds them as a client; the delegation stays", async () => {
    const olivia = await addClient("Olivia", "Bennett");
    const email = address("later.client");
    const id = await activeDelegate(olivia, email, "Later Client");
    n += 1;
    const added = await t.app.inject({
      method: "POST",
      url: "/api/admin/addclient",
      headers: admin,
      payload: {
        clientId: `CL-DEL${n}`,
        firstName: "Later",
        lastName: "Client",
        email,
        password: "firm-chosen-passphrase",
        role: "client",
        privilege: "View",
        workbookIds: [wb[2]!.id],
      },
    });
    expect(added.statusCode, added.body).toBe(201);
    const [user] = await query<{ role: string; name: string }>(
      sql`select role, name from users where email = ${email}`,
    );
    expect(user).toEqual({ role: "client", name: "Later Client" });
    expect((await t.signIn(email, "lantern-meadow-orchard")).statusCode).toBe(200);
    expect((await t.signIn(email, "firm-chosen-passphrase")).statusCode).toBe(401);
    expect((await list(olivia.headers)).json().delegates).toEqual([
      expect.objectContaining({ id, status: "active" }),
    ]);

    // Any other existing account is still a conflict.
    const taken = await t.app.inject({
      method: "POST",
      url: "/api/admin/addclient",
      headers: admin,
      payload: {
        clientId: `CL-DEL${n}-B`,
        firstName: "Olivia",
        lastName: "Again",
        email: olivia.email,
        password: "firm-chosen-passphrase",
        role: "client",
        privilege: "View",
        workbookIds: [],
      },
    });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().code).toBe("DUPLICATE_EMAIL");
  });
});
