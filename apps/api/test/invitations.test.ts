import { sql, type SQL } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../src/config.ts";
import type { DatabaseHandle } from "../src/db/client.ts";
import { invitationTokenHash } from "../src/invitations/tokens.ts";
import { cookieHeader, createTestApp, headersFor, ORIGIN } from "./support/app.ts";
import { createTestDatabase } from "./support/database.ts";
import { startSmtpServer } from "./support/smtp.ts";

let database: DatabaseHandle;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let t: Awaited<ReturnType<typeof createTestApp>>;
let admin: Record<string, string>;
let workbook: { id: number; workbook_name: string };
let n = 0;

beforeAll(async () => {
  database = await createTestDatabase();
  smtp = await startSmtpServer();
  // Employees must set up two-step verification here, clients not: the page tells each what comes next.
  t = await createTestApp(database, {
    SMTP_URL: smtp.url,
    AUTH_IP_LIMIT_PER_MINUTE: "10000",
    MFA_REQUIRED_ROLES: "admin,employee",
  });
  admin = await headersFor(t, "admin");
  workbook = (
    await t.app.inject({
      method: "POST",
      url: "/api/admin/addworkbook",
      headers: admin,
      payload: { workbook_name: "Invited-Overview-abcdefghijklmnopqrstuv", team_name: "Invited Team" },
    })
  ).json().data;
});
afterAll(async () => {
  await t.app.close();
  await smtp.close();
  await database.close();
});

const query = async <T>(statement: SQL) =>
  ((await database.db.execute(statement)) as unknown as { rows: T[] }).rows;

const json = { origin: ORIGIN, "content-type": "application/json" };

function clientPayload(overrides: Record<string, unknown> = {}) {
  n += 1;
  return {
    clientId: `CL-INV${n}`,
    firstName: "Imogen",
    lastName: `Invited${n}`,
    email: `imogen.invited${n}@example.com`,
    role: "client",
    privilege: "View",
    workbookIds: [workbook.id],
    invite: true,
    ...overrides,
  };
}

function employeePayload(overrides: Record<string, unknown> = {}) {
  n += 1;
  return {
    employeeId: `EM-INV${n}`,
    firstName: "Edmund",
    lastName: `Invited${n}`,
    email: `edmund.invited${n}@meridian-advisory.example`,
    role: "employee",
    privilege: "Act",
    clientIds: [],
    invite: true,
    ...overrides,
  };
}

const addClient = (payload: object) =>
  t.app.inject({ method: "POST", url: "/api/admin/addclient", headers: admin, payload });
const addEmployee = (payload: object) =>
  t.app.inject({ method: "POST", url: "/api/admin/addemployee", headers: admin, payload });
const lookup = (token: unknown) =>
  t.app.inject({ method: "POST", url: "/api/invitations/lookup", headers: json, payload: { token } });
const accept = (token: unknown, password: unknown) =>
  t.app.inject({
    method: "POST",
    url: "/api/invitations/accept",
    headers: json,
    payload: { token, password },
  });
const resend = (kind: string, id: number | string) =>
  t.app.inject({ method: "POST", url: `/api/admin/invitations/${kind}/${id}/resend`, headers: admin });
const revoke = (kind: string, id: number | string) =>
  t.app.inject({ method: "DELETE", url: `/api/admin/invitations/${kind}/${id}`, headers: admin });
const listed = async (kind: "clients" | "employees", email: string) =>
  (
    (
      await t.app.inject({ method: "GET", url: `/api/admin/${kind}?q=${email}`, headers: admin })
    ).json() as Record<string, unknown>[]
  )[0]!;

/** The token of the latest invitation mailed to the address (the real SMTP server's copy). */
async function mailedToken(email: string) {
  const mail = await smtp.nextMailTo(email);
  const link = new URL(mail.text.match(/https?:\/\/\S+\/invitation\?token=\S+/)![0]);
  expect(link.origin).toBe(ORIGIN);
  expect(mail.html).toContain(link.pathname);
  return { token: link.searchParams.get("token")!, mail };
}

/** Everything acceptance could change about a person: credential, invitation rows, sessions. */
async function stateOf(email: string) {
  return query(sql`
    select (select count(*)::int from accounts a where a.user_id = u.id) as accounts,
           (select count(*)::int from sessions s where s.user_id = u.id) as sessions,
           (select json_agg(json_build_object('accepted', i.accepted_at is not null, 'revoked', i.revoked_at is not null,
                                              'replaced', i.replaced_at is not null) order by i.created_at)
              from invitations i where i.user_id = u.id) as invitations
      from users u where u.email = ${email}`);
}

describe("Add Client with an invitation", () => {
  it("creates the client without a password, mails a single-use link and lists them as invited", async () => {
    const payload = clientPayload();
    const res = await addClient(payload);
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body.message).toBe(`Client registered successfully! An invitation was sent to ${payload.email}.`);
    expect(body.data.embed).toEqual({ embedUrl: null });
    expect(body.data.client).toMatchObject({
      client_id: payload.clientId,
      workbook_ids: [workbook.id],
      invitation: { status: "pending" },
    });
    const { token, mail } = await mailedToken(payload.email);
    expect(mail.subject).toBe("You are invited to the Meridian Tax & Wealth portal");
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);

    // No password: nobody can sign in; only the token's hash is stored, with the configured lifetime.
    expect((await t.signIn(payload.email, "anything-at-all-123")).statusCode).toBe(401);
    const [row] = await query<{ token_hash: string; hours: number }>(sql`
      select token_hash, extract(epoch from expires_at - created_at) / 3600 as hours
        from invitations where user_id = (select id from users where email = ${payload.email})`);
    expect(row!.token_hash).toBe(invitationTokenHash(token));
    expect(row!.token_hash).not.toContain(token);
    expect(Math.round(Number(row!.hours))).toBe(72);
    expect(await stateOf(payload.email)).toEqual([
      { accounts: 0, sessions: 0, invitations: [{ accepted: false, revoked: false, replaced: false }] },
    ]);

    const invited = await listed("clients", payload.email);
    expect(invited.invitation).toEqual({
      status: "pending",
      sent_at: expect.any(String),
      expires_at: expect.any(String),
    });
    // The BI member is queued at once, as for a client added with a password (D55).
    const outbox = await query<{ kind: string }>(
      sql`select kind from provisioning_requests where subject = ${payload.email}`,
    );
    expect(outbox.map((r) => r.kind)).toEqual(["member.upsert"]);
    const audit = await query<{ action: string }>(
      sql`select action from audit_log where target_type = 'client' and target_id = ${String(body.data.client.c_id)} order by id`,
    );
    expect(audit.map((r) => r.action)).toEqual(["client.created", "invitation.sent"]);
  });

  it("keeps Set a password exactly as it was, and lists nobody added that way as invited", async () => {
    const { invite: _invite, ...payload } = clientPayload();
    const res = await addClient({ ...payload, password: "tidal-granite-passphrase" });
    expect(res.statusCode).toBe(201);
    expect(res.json().data.client).not.toHaveProperty("invitation");
    expect(res.json().data.embed.embedUrl).toMatch(/^http/);
    expect(await listed("clients", payload.email)).not.toHaveProperty("invitation");
    expect(smtp.received.filter((m) => m.to === payload.email)).toEqual([]);
  });

  it.each([
    ["no password and no invitation", { invite: undefined }, "All fields are required."],
    ["a password with the invitation", { password: "tidal-granite-passphrase" }, "Leave the password out"],
    ["invite of another value", { invite: "yes" }, "invite must be true or left out."],
    ["invite false without a password", { invite: false }, "All fields are required."],
    ["a NUL byte in a name", { firstName: "Im\u0000ogen" }, "First Name must not contain NUL characters."],
  ])("refuses %s with a readable 400 and creates nothing", async (_name, overrides, message) => {
    const payload = clientPayload(overrides);
    const res = await addClient(payload);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toContain(message);
    expect(await query(sql`select 1 from users where email = ${payload.email}`)).toEqual([]);
  });
});

describe("accepting an invitation", () => {
  it("shows whose link it is, refuses a weak password under the policy, then sets it once and signs in", async () => {
    const payload = clientPayload({ firstName: "Philippa" });
    const cId = (await addClient(payload)).json().data.client.c_id as number;
    const { token } = await mailedToken(payload.email);

    const seen = await lookup(token);
    expect(seen.statusCode).toBe(200);
    expect(seen.headers["cache-control"]).toBe("no-store");
    expect(seen.json()).toEqual({
      firstName: "Philippa",
      email: payload.email,
      kind: "client",
      expiresAt: expect.any(String),
      twoStepRequired: false,
      invitedBy: null,
      hasPassword: false,
    });

    // The accounts module's policy, in its own words; nothing changes.
    for (const [weak, message] of [
      ["short", "Password must be at least 8 characters."],
      ["password123", "one of the most commonly used passwords"],
      ["philippa-2026-portal", "must not contain your name or email"],
    ]) {
      const refused = await accept(token, weak);
      expect(refused.statusCode, weak).toBe(400);
      expect(refused.json()).toMatchObject({
        code: "PASSWORD_POLICY",
        error: expect.stringContaining(message!),
      });
    }
    expect((await lookup(token)).statusCode).toBe(200);

    const password = "harbour-lantern-orchard";
    const accepted = await accept(token, password);
    expect(accepted.statusCode).toBe(200);
    expect(accepted.json()).toEqual({
      message: expect.any(String),
      email: payload.email,
      twoStepRequired: false,
    });
    expect(await listed("clients", payload.email)).not.toHaveProperty("invitation");

    // They sign in and see their workbooks.
    const signedIn = await t.signIn(payload.email, password);
    expect(signedIn.statusCode).toBe(200);
    const mine = await t.app.inject({
      method: "GET",
      url: "/api/me/workbooks",
      headers: { cookie: cookieHeader(signedIn), origin: ORIGIN },
    });
    expect(mine.statusCode).toBe(200);
    expect(JSON.stringify(mine.json())).toContain(workbook.workbook_name);

    // A second use of the link fails clearly and changes nothing.
    const before = await stateOf(payload.email);
    const again = await accept(token, "another-fine-passphrase");
    expect(again.statusCode).toBe(410);
    expect(again.json()).toMatchObject({
      code: "INVITATION_USED",
      error: expect.stringContaining("already used"),
    });
    expect((await lookup(token)).json().code).toBe("INVITATION_USED");
    expect(await stateOf(payload.email)).toEqual(before);
    expect((await t.signIn(payload.email, "another-fine-passphrase")).statusCode).toBe(401);
    expect((await t.signIn(payload.email, password)).statusCode).toBe(200);

    // Resend and Revoke now refuse: they have a password.
    expect((await resend("client", cId)).json()).toMatchObject({ code: "ALREADY_HAS_PASSWORD" });
    expect((await revoke("client", cId)).json()).toMatchObject({ code: "NO_OPEN_INVITATION" });
    const audit = await query<{ action: string; outcome: string }>(
      sql`select action, outcome from audit_log where action = 'invitation.accepted' and target_id = ${String(cId)}`,
    );
    expect(audit).toEqual([{ action: "invitation.accepted", outcome: "success" }]);
  });

  it("sets the password once when the link is used twice at the same moment", async () => {
    const payload = clientPayload();
    await addClient(payload);
    const { token } = await mailedToken(payload.email);
    const answers = await Promise.all([
      accept(token, "first-racing-passphrase"),
      accept(token, "second-racing-passphrase"),
    ]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 410]);
    expect(await stateOf(payload.email)).toEqual([
      { accounts: 1, sessions: 0, invitations: [{ accepted: true, revoked: false, replaced: false }] },
    ]);
  });

  it("tells an employee whose role requires it that two-step set-up follows, which the portal then asks for", async () => {
    const payload = employeePayload();
    const res = await addEmployee(payload);
    expect(res.statusCode).toBe(201);
    expect(res.json().data.employee.invitation.status).toBe("pending");
    expect(res.json().data.embed).toEqual({ embedUrl: null });
    const { token } = await mailedToken(payload.email);
    expect((await lookup(token)).json()).toMatchObject({ kind: "employee", twoStepRequired: true });
    const password = "meadow-copper-lighthouse";
    expect((await accept(token, password)).json()).toMatchObject({ twoStepRequired: true });
    const cookie = await t.sessionCookie(payload.email, password);
    const gated = await t.app.inject({
      method: "GET",
      url: "/api/me/workbooks",
      headers: { cookie, origin: ORIGIN },
    });
    expect(gated.statusCode).toBe(403);
    expect(gated.json().code).toBe("MFA_ENROLLMENT_REQUIRED");
    const ready = await t.enrolTwoFactor(payload.email, password, cookie);
    const after = await t.app.inject({
      method: "GET",
      url: "/api/me/workbooks",
      headers: { cookie: ready.cookie, origin: ORIGIN },
    });
    expect(after.statusCode).toBe(200);
  });

  it("refuses an expired link clearly and changes nothing; Resend makes a new one and ends the old", async () => {
    const payload = clientPayload();
    const cId = (await addClient(payload)).json().data.client.c_id as number;
    const { token } = await mailedToken(payload.email);
    await database.db.execute(
      sql`update invitations set expires_at = now() - interval '1 minute' where token_hash = ${invitationTokenHash(token)}`,
    );
    const before = await stateOf(payload.email);
    const expired = await accept(token, "granite-willow-passphrase");
    expect(expired.statusCode).toBe(410);
    expect(expired.json()).toMatchObject({
      code: "INVITATION_EXPIRED",
      error: expect.stringContaining("expired"),
    });
    expect((await lookup(token)).json().code).toBe("INVITATION_EXPIRED");
    expect(await stateOf(payload.email)).toEqual(before);
    expect((await listed("clients", payload.email)).invitation).toMatchObject({ status: "expired" });

    const resent = await resend("client", cId);
    expect(resent.statusCode).toBe(200);
    expect(resent.json()).toMatchObject({
      message: expect.stringContaining(payload.email),
      invitation: { status: "pending" },
    });
    const { token: fresh } = await mailedToken(payload.email);
    expect(fresh).not.toBe(token);
    expect((await lookup(token)).json().code).toBe("INVITATION_REVOKED");
    expect((await lookup(fresh)).statusCode).toBe(200);
    expect((await listed("clients", payload.email)).invitation).toMatchObject({ status: "pending" });

    // A resend while the previous link still works ends that link too.
    const third = await resend("client", cId);
    expect(third.statusCode).toBe(200);
    const { token: newest } = await mailedToken(payload.email);
    const replaced = await accept(fresh, "granite-willow-passphrase");
    expect(replaced.statusCode).toBe(410);
    expect(replaced.json().error).toContain("newer invitation");
    expect((await accept(newest, "granite-willow-passphrase")).statusCode).toBe(200);
  });

  it("refuses a revoked link clearly; Revoke twice is a readable 409; Resend invites again", async () => {
    const payload = employeePayload();
    const eId = (await addEmployee(payload)).json().data.employee.e_id as number;
    const { token } = await mailedToken(payload.email);
    const revoked = await revoke("employee", eId);
    expect(revoked.statusCode).toBe(200);
    expect(revoked.json()).toMatchObject({ invitation: { status: "revoked" } });
    expect((await listed("employees", payload.email)).invitation).toMatchObject({ status: "revoked" });

    const before = await stateOf(payload.email);
    const refused = await accept(token, "lantern-orchard-harbour");
    expect(refused.statusCode).toBe(410);
    expect(refused.json()).toMatchObject({
      code: "INVITATION_REVOKED",
      error: expect.stringContaining("withdrawn"),
    });
    expect(await stateOf(payload.email)).toEqual(before);
    expect((await revoke("employee", eId)).statusCode).toBe(409);

    expect((await resend("employee", eId)).statusCode).toBe(200);
    const { token: fresh } = await mailedToken(payload.email);
    expect((await accept(fresh, "lantern-orchard-harbour")).statusCode).toBe(200);
    const audit = await query<{ action: string }>(
      sql`select action from audit_log where target_type = 'employee' and target_id = ${String(eId)} order by id`,
    );
    expect(audit.map((r) => r.action)).toEqual([
      "employee.created",
      "invitation.sent",
      "invitation.revoked",
      "invitation.resent",
      "invitation.accepted",
    ]);
  });

  it("refuses the link of a deleted client, even when the address is added again", async () => {
    const payload = clientPayload();
    const cId = (await addClient(payload)).json().data.client.c_id as number;
    const { token } = await mailedToken(payload.email);
    expect(
      (await t.app.inject({ method: "DELETE", url: `/api/admin/deleteclient/${cId}`, headers: admin }))
        .statusCode,
    ).toBe(200);
    expect((await lookup(token)).json().code).toBe("INVITATION_REVOKED");
    // The same address added again (with a password) reuses the sign-in account, never the old link.
    const { invite: _invite, ...again } = { ...payload, clientId: `${payload.clientId}-B` };
    expect((await addClient({ ...again, password: "second-life-passphrase" })).statusCode).toBe(201);
    expect((await accept(token, "hijacked-passphrase-xyz")).statusCode).toBe(410);
    expect((await t.signIn(payload.email, "second-life-passphrase")).statusCode).toBe(200);
  });

  it.each([
    ["a token of no invitation", "A".repeat(43), 404, "INVITATION_INVALID"],
    ["a malformed token", "not-a-token", 400, "INVALID_INPUT"],
    ["a NUL byte in the token", `${"A".repeat(42)}\u0000`, 400, "INVALID_INPUT"],
    ["a token that is not text", 42, 400, "INVALID_INPUT"],
  ])("answers %s with a readable 4xx", async (_name, token, status, code) => {
    for (const res of [await lookup(token), await accept(token, "granite-willow-passphrase")]) {
      expect(res.statusCode).toBe(status);
      expect(res.json()).toMatchObject({ code, error: expect.stringMatching(/\w/) });
    }
  });

  it("refuses a NUL byte in the password and an unknown field", async () => {
    const payload = clientPayload();
    await addClient(payload);
    const { token } = await mailedToken(payload.email);
    const nul = await accept(token, "granite\u0000willow-passphrase");
    expect(nul.statusCode).toBe(400);
    expect(nul.json().error).toBe("Password must not contain NUL characters.");
    const extra = await t.app.inject({
      method: "POST",
      url: "/api/invitations/accept",
      headers: json,
      payload: { token, password: "granite-willow-passphrase", role: "admin" },
    });
    expect(extra.statusCode).toBe(400);
    expect((await lookup(token)).statusCode).toBe(200);
  });
});

describe("an invited person who uses Reset Password instead", () => {
  it("gets a password through Better Auth's reset; the link then counts as used and the list drops Invited", async () => {
    const payload = clientPayload();
    await addClient(payload);
    const { token } = await mailedToken(payload.email);
    const requested = await t.app.inject({
      method: "POST",
      url: "/api/auth/request-password-reset",
      headers: json,
      payload: { email: payload.email, redirectTo: "/reset-password" },
    });
    expect(requested.statusCode).toBe(200);
    const link = new URL((await smtp.nextMailTo(payload.email)).text.match(/https?:\/\/\S+/)![0]);
    const landing = await t.app.inject({ method: "GET", url: link.pathname + link.search });
    const resetToken = new URL(landing.headers.location!, ORIGIN).searchParams.get("token")!;
    const reset = await t.app.inject({
      method: "POST",
      url: "/api/auth/reset-password",
      headers: json,
      payload: { newPassword: "orchard-harbour-lantern", token: resetToken },
    });
    expect(reset.statusCode).toBe(200);
    expect((await t.signIn(payload.email, "orchard-harbour-lantern")).statusCode).toBe(200);
    expect(await listed("clients", payload.email)).not.toHaveProperty("invitation");
    const used = await accept(token, "another-fine-passphrase");
    expect(used.statusCode).toBe(410);
    expect(used.json().code).toBe("INVITATION_USED");
  });
});

describe("Resend and Revoke", () => {
  it.each([
    ["an unknown id", "client", 999_999, 404],
    ["a wrong kind", "manager", 1, 400],
    ["a kind in another case", "Client", 1, 400],
    ["an id that is not canonical", "client", "007", 400],
    ["an id out of range", "employee", "2147483648", 400],
  ])("answer %s with a readable 4xx", async (_name, kind, id, status) => {
    for (const res of [await resend(kind, id), await revoke(kind, id)]) {
      expect(res.statusCode).toBe(status);
      expect(res.json().error).toMatch(/\w/);
    }
  });
});

describe("password-reset email from Edit Client / Edit Employee", () => {
  const sendReset = (kind: string, id: number | string) =>
    t.app.inject({ method: "POST", url: `/api/admin/password-reset/${kind}/${id}`, headers: admin });

  it("mails the person Better Auth's reset link, audited; an invited person is sent to Resend instead", async () => {
    const { invite: _invite, ...payload } = clientPayload();
    const cId = (await addClient({ ...payload, password: "tidal-granite-passphrase" })).json().data.client
      .c_id as number;
    const res = await sendReset("client", cId);
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe(`A password reset email was sent to ${payload.email}.`);
    const mail = await smtp.nextMailTo(payload.email);
    expect(mail.subject).toBe("Reset your Meridian Tax & Wealth portal password");
    const link = new URL(mail.text.match(/https?:\/\/\S+/)![0]);
    const landing = await t.app.inject({ method: "GET", url: link.pathname + link.search });
    const token = new URL(landing.headers.location!, ORIGIN).searchParams.get("token")!;
    const reset = await t.app.inject({
      method: "POST",
      url: "/api/auth/reset-password",
      headers: json,
      payload: { newPassword: "fresh-reset-passphrase-9", token },
    });
    expect(reset.statusCode).toBe(200);
    expect((await t.signIn(payload.email, "fresh-reset-passphrase-9")).statusCode).toBe(200);
    const audit = await query<{ action: string }>(
      sql`select action from audit_log where action = 'user.password_reset_sent' and target_id = ${String(cId)}`,
    );
    expect(audit).toHaveLength(1);

    const invited = employeePayload();
    const eId = (await addEmployee(invited)).json().data.employee.e_id as number;
    await mailedToken(invited.email);
    const pending = await sendReset("employee", eId);
    expect(pending.statusCode).toBe(409);
    expect(pending.json()).toMatchObject({
      code: "INVITATION_PENDING",
      error: expect.stringContaining("Resend"),
    });
    expect((await sendReset("employee", 999_999)).statusCode).toBe(404);
    expect((await sendReset("admin", 1)).statusCode).toBe(400);
  });
});

describe("INVITE_LIFETIME_HOURS", () => {
  const base = {
    NODE_ENV: "test",
    BETTER_AUTH_SECRET: "x".repeat(40),
    DATA_DIR: "/tmp/portal-invite-config",
  };

  it("defaults to 72 hours and is checked at boot", () => {
    expect(loadConfig(base).inviteLifetimeMs).toBe(72 * 3600 * 1000);
    expect(loadConfig({ ...base, INVITE_LIFETIME_HOURS: "24" }).inviteLifetimeMs).toBe(24 * 3600 * 1000);
    for (const bad of ["0", "-1", "1.5", "721", "soon"]) {
      expect(() => loadConfig({ ...base, INVITE_LIFETIME_HOURS: bad }), bad).toThrow(ConfigError);
    }
  });

  it("sets the link's lifetime", async () => {
    const short = await createTestApp(database, { SMTP_URL: smtp.url, INVITE_LIFETIME_HOURS: "2" });
    try {
      const headers = await headersFor(short, "admin");
      const payload = clientPayload();
      const res = await short.app.inject({ method: "POST", url: "/api/admin/addclient", headers, payload });
      const { sent_at, expires_at } = res.json().data.client.invitation;
      expect(Date.parse(expires_at) - Date.parse(sent_at)).toBe(2 * 3600 * 1000);
      await mailedToken(payload.email);
    } finally {
      await short.app.close();
    }
  });
});

describe("the invitation page's public calls", () => {
  it("are limited per address (AUTH_IP_LIMIT_PER_MINUTE), audited when refused, and leave other routes alone", async () => {
    const limited = await createTestApp(database, { SMTP_URL: smtp.url, AUTH_IP_LIMIT_PER_MINUTE: "3" });
    try {
      const call = (url: string, remoteAddress: string) =>
        limited.app.inject({
          method: "POST",
          url,
          remoteAddress,
          headers: json,
          payload: { token: "x".repeat(43) },
        });
      const statuses: number[] = [];
      for (let i = 0; i < 3; i++)
        statuses.push((await call("/api/invitations/lookup", "198.51.100.61")).statusCode);
      expect(statuses.every((s) => s !== 429)).toBe(true);
      const refused = await call("/api/invitations/accept", "198.51.100.61");
      expect(refused.statusCode).toBe(429);
      expect(refused.headers["retry-after"]).toMatch(/^\d+$/);
      expect(refused.json()).toMatchObject({ code: "RATE_LIMITED" });
      // Another address has its own count; other routes from the limited address are not counted here.
      expect((await call("/api/invitations/lookup", "198.51.100.62")).statusCode).not.toBe(429);
      const health = await limited.app.inject({
        method: "GET",
        url: "/healthz",
        remoteAddress: "198.51.100.61",
      });
      expect(health.statusCode).toBe(200);
      const rows = await query<{ n: number }>(
        sql`select count(*)::int as n from audit_log where action = 'auth.request_refused'
              and outcome = 'rate_limited' and ip = '198.51.100.61'`,
      );
      expect(rows[0]!.n).toBeGreaterThanOrEqual(1);
    } finally {
      await limited.app.close();
    }
  });
});
