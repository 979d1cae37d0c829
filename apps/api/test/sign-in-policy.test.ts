/**
 * The firm's sign-in policy on /admin/settings (issue 24): GET|PUT /api/admin/settings/sign-in. Until an admin
 * saves it, MFA_REQUIRED_ROLES decides (here "admin,employee"); once saved, the saved roles do, admins always
 * among them and delegates with clients. It shares the `firm_policies` row with the delegation setting.
 */
import { sql, type SQL } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "../src/db/client.ts";
import { effectiveSignInPolicy, signInPolicySetting } from "../src/signin/policy.ts";
import { createTestApp, headersFor, ORIGIN } from "./support/app.ts";
import { createTestDatabase } from "./support/database.ts";

const URL = "/api/admin/settings/sign-in";

let database: DatabaseHandle;
let t: Awaited<ReturnType<typeof createTestApp>>;
let adminEmail: string;
const as: Record<"anonymous" | "client" | "employee" | "admin", Record<string, string>> = {
  anonymous: { origin: ORIGIN },
  client: {},
  employee: {},
  admin: {},
};

beforeAll(async () => {
  database = await createTestDatabase();
  t = await createTestApp(database, {
    MFA_REQUIRED_ROLES: "admin,employee",
    AUTH_IP_LIMIT_PER_MINUTE: "10000",
  });
  const admin = await t.createUser("admin");
  adminEmail = admin.email;
  as.admin = { cookie: await t.readyCookie(admin.email, admin.password, "admin"), origin: ORIGIN };
  as.client = await headersFor(t, "client");
  as.employee = await headersFor(t, "employee");
});
afterAll(async () => {
  await t.app.close();
  await database.close();
});

const query = async <T>(statement: SQL) =>
  ((await database.db.execute(statement)) as unknown as { rows: T[] }).rows;

const getPolicy = (who: keyof typeof as = "admin") =>
  t.app.inject({ method: "GET", url: URL, headers: as[who] });
const putPolicy = (payload: object, who: keyof typeof as = "admin") =>
  t.app.inject({ method: "PUT", url: URL, headers: as[who], payload });
const putDelegation = (clientsMayInvite: boolean) =>
  t.app.inject({
    method: "PUT",
    url: "/api/admin/settings/delegation",
    headers: as.admin,
    payload: { clientsMayInvite },
  });

/** The firm's policies row (or none) and its audit rows: what a refused request must leave as it was. */
async function written() {
  return {
    policies: await query(
      sql`select id, clients_may_invite, mfa_required_roles, email_codes, updated_by from firm_policies`,
    ),
    audited: await query(sql`select id from audit_log where action = 'policy.updated'`),
  };
}

describe("until an admin saves it", () => {
  it("shows the start-up default (MFA_REQUIRED_ROLES), not cached, with email codes off", async () => {
    expect(await query(sql`select id from firm_policies`)).toEqual([]);
    const res = await getPolicy();
    expect(res.statusCode).toBe(200);
    expect(res.headers["cache-control"]).toBe("no-store");
    expect(res.json()).toEqual({ mfaRequiredRoles: ["employee"], emailCodes: false });
    expect(await effectiveSignInPolicy(database.db, t.config)).toEqual({
      requiredRoles: ["admin", "employee"],
      emailCodes: false,
    });
  });

  it("follows whatever MFA_REQUIRED_ROLES says, delegates with clients", async () => {
    expect(await signInPolicySetting(database.db, { mfaRequiredRoles: ["admin"] })).toEqual({
      mfaRequiredRoles: [],
      emailCodes: false,
    });
    expect(await signInPolicySetting(database.db, { mfaRequiredRoles: [] })).toEqual({
      mfaRequiredRoles: [],
      emailCodes: false,
    });
    expect(await effectiveSignInPolicy(database.db, { mfaRequiredRoles: ["admin", "client"] })).toEqual({
      requiredRoles: ["admin", "client", "delegate"],
      emailCodes: false,
    });
  });

  it("stays the start-up default when saving the delegation setting creates the row", async () => {
    expect((await putDelegation(false)).statusCode).toBe(200);
    try {
      expect(await query(sql`select mfa_required_roles, email_codes from firm_policies`)).toEqual([
        { mfa_required_roles: null, email_codes: false },
      ]);
      expect((await getPolicy()).json()).toEqual({ mfaRequiredRoles: ["employee"], emailCodes: false });
    } finally {
      expect((await putDelegation(true)).statusCode).toBe(200);
    }
  });
});

describe("who may read and change it", () => {
  it.each([
    ["anonymous", 401, "UNAUTHENTICATED"],
    ["client", 403, "FORBIDDEN"],
    ["employee", 403, "FORBIDDEN"],
  ] as const)("answers %s %i and changes nothing", async (who, status, code) => {
    const before = await written();
    const read = await getPolicy(who);
    expect(read.statusCode).toBe(status);
    expect(read.json()).toMatchObject({ code, error: expect.any(String) });
    const write = await putPolicy({ mfaRequiredRoles: ["employee", "client"], emailCodes: true }, who);
    expect(write.statusCode).toBe(status);
    expect(write.json()).toMatchObject({ code, error: expect.any(String) });
    expect(await written()).toEqual(before);
  });
});

describe("a body that is not a policy", () => {
  const valid = { mfaRequiredRoles: ["employee"], emailCodes: false };
  it.each([
    ["admin in the list (always required, so never listed)", { ...valid, mfaRequiredRoles: ["admin"] }],
    ["delegate in the list (they go with clients)", { ...valid, mfaRequiredRoles: ["client", "delegate"] }],
    ["a role spelt otherwise", { ...valid, mfaRequiredRoles: ["Employee"] }],
    ["a role listed twice", { ...valid, mfaRequiredRoles: ["employee", "employee"] }],
    ["more roles than there are", { ...valid, mfaRequiredRoles: ["employee", "client", "employee"] }],
    ["the roles as one string", { ...valid, mfaRequiredRoles: "employee,client" }],
    ["no roles at all", { ...valid, mfaRequiredRoles: null }],
    ["the roles left out", { emailCodes: true }],
    ["email codes as text", { ...valid, emailCodes: "true" }],
    ["email codes as a number", { ...valid, emailCodes: 1 }],
    ["email codes null", { ...valid, emailCodes: null }],
    ["email codes left out", { mfaRequiredRoles: ["client"] }],
    ["an unknown key", { ...valid, requireAdmins: false }],
    ["the delegation setting's key", { ...valid, clientsMayInvite: false }],
    ["an empty object", {}],
  ])("refuses %s with 400 and changes nothing", async (_name, payload) => {
    const before = await written();
    const res = await putPolicy(payload);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toEqual({
      error: expect.stringMatching(/\w/),
      code: "INVALID_INPUT",
      requestId: expect.any(String),
    });
    expect(await written()).toEqual(before);
  });

  it("says why a role listed twice is refused", async () => {
    const res = await putPolicy({ mfaRequiredRoles: ["client", "client"], emailCodes: false });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatch(/only once/);
  });

  it.each([
    ["null", "null"],
    ["a string", '"employee"'],
    ["an array", '["employee"]'],
    ["a number", "1"],
  ])("refuses %s as the whole body with 400 and changes nothing", async (_name, payload) => {
    const before = await written();
    const res = await t.app.inject({
      method: "PUT",
      url: URL,
      headers: { ...as.admin, "content-type": "application/json" },
      payload,
    });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({ error: expect.stringMatching(/\w/), requestId: expect.any(String) });
    expect(await written()).toEqual(before);
  });
});

describe("saving", () => {
  it("keeps what was saved, for GET and for the sign-in gate, with an audit row of before and after", async () => {
    const res = await putPolicy({ mfaRequiredRoles: ["client", "employee"], emailCodes: true });
    expect(res.statusCode, res.body).toBe(200);
    // The roles come back in one order, whatever order they were sent in.
    expect(res.json()).toEqual({ mfaRequiredRoles: ["employee", "client"], emailCodes: true });
    const read = await getPolicy();
    expect(read.headers["cache-control"]).toBe("no-store");
    expect(read.json()).toEqual({ mfaRequiredRoles: ["employee", "client"], emailCodes: true });
    expect(await effectiveSignInPolicy(database.db, t.config)).toEqual({
      requiredRoles: ["admin", "employee", "client", "delegate"],
      emailCodes: true,
    });
    const audit = await query(
      sql`select actor_email, target_type, target_id, outcome, before, after from audit_log
          where action = 'policy.updated' and request_id = ${res.headers["x-request-id"] as string}`,
    );
    expect(audit).toEqual([
      {
        actor_email: adminEmail,
        target_type: "policy",
        target_id: "sign-in",
        outcome: "success",
        before: { mfaRequiredRoles: ["employee"], emailCodes: false },
        after: { mfaRequiredRoles: ["employee", "client"], emailCodes: true },
      },
    ]);
  });

  it("requires admins always, even when no other role is saved and MFA_REQUIRED_ROLES names more", async () => {
    const res = await putPolicy({ mfaRequiredRoles: [], emailCodes: false });
    expect(res.statusCode, res.body).toBe(200);
    expect((await getPolicy()).json()).toEqual({ mfaRequiredRoles: [], emailCodes: false });
    expect(await effectiveSignInPolicy(database.db, t.config)).toEqual({
      requiredRoles: ["admin"],
      emailCodes: false,
    });
    const [last] = await query(
      sql`select before, after from audit_log where action = 'policy.updated' order by id desc limit 1`,
    );
    expect(last).toEqual({
      before: { mfaRequiredRoles: ["employee", "client"], emailCodes: true },
      after: { mfaRequiredRoles: [], emailCodes: false },
    });
  });

  it("covers the people clients invite when clients are required", async () => {
    expect((await putPolicy({ mfaRequiredRoles: ["client"], emailCodes: false })).statusCode).toBe(200);
    expect((await effectiveSignInPolicy(database.db, t.config)).requiredRoles).toEqual([
      "admin",
      "client",
      "delegate",
    ]);
  });
});

describe("beside the delegation setting (one row)", () => {
  it("neither save overwrites the other", async () => {
    const delegation = () =>
      t.app.inject({ method: "GET", url: "/api/admin/settings/delegation", headers: as.admin });

    expect((await putPolicy({ mfaRequiredRoles: ["employee"], emailCodes: true })).statusCode).toBe(200);
    expect((await putDelegation(false)).statusCode).toBe(200);
    expect((await getPolicy()).json()).toEqual({ mfaRequiredRoles: ["employee"], emailCodes: true });

    expect((await putPolicy({ mfaRequiredRoles: ["client"], emailCodes: false })).statusCode).toBe(200);
    expect((await delegation()).json()).toEqual({ clientsMayInvite: false });

    expect((await putDelegation(true)).statusCode).toBe(200);
    expect((await getPolicy()).json()).toEqual({ mfaRequiredRoles: ["client"], emailCodes: false });
    expect(
      await query(sql`select id, clients_may_invite, mfa_required_roles, email_codes from firm_policies`),
    ).toEqual([{ id: 1, clients_may_invite: true, mfa_required_roles: ["client"], email_codes: false }]);
  });
});

describe("the policy as the gate applies it", () => {
  it("holds a client with no second step back from workbook data once clients are required, and lets them in when it is off", async () => {
    const client = await t.createUser("client");
    const cookie = await t.sessionCookie(client.email, client.password);
    const workbooks = () =>
      t.app.inject({ method: "GET", url: "/api/me/workbooks", headers: { cookie, origin: ORIGIN } });
    const standing = async () =>
      (
        await t.app.inject({
          method: "GET",
          url: "/api/auth/get-session",
          headers: { cookie, origin: ORIGIN },
        })
      ).json() as { secondStep: { status: string; requiredForRole: boolean } };

    expect((await putPolicy({ mfaRequiredRoles: [], emailCodes: false })).statusCode).toBe(200);
    expect((await workbooks()).statusCode).toBe(200);
    expect((await putPolicy({ mfaRequiredRoles: ["client"], emailCodes: false })).statusCode).toBe(200);
    // The save cleared every cached principal: the very next request is held back, with the reason.
    const held = await workbooks();
    expect(held.statusCode).toBe(403);
    expect(held.json()).toMatchObject({ code: "MFA_ENROLLMENT_REQUIRED" });
    expect(await standing()).toMatchObject({ secondStep: { status: "required", requiredForRole: true } });
    // Better Auth's own paths other than enrolment are held back too (a token for the API, say).
    const token = await t.app.inject({
      method: "GET",
      url: "/api/auth/token",
      headers: { cookie, origin: ORIGIN },
    });
    expect(token.statusCode).toBe(403);
    // What enrolment needs stays open.
    expect(
      (await t.post("/api/auth/two-factor/enable", cookie, { password: client.password })).statusCode,
    ).toBe(200);

    expect((await putPolicy({ mfaRequiredRoles: [], emailCodes: false })).statusCode).toBe(200);
    expect((await workbooks()).statusCode).toBe(200);
    expect(await standing()).toMatchObject({ secondStep: { status: "optional", requiredForRole: false } });
  });
});
