import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "../src/db/client.ts";
import { createTestApp, headersFor, ORIGIN } from "./support/app.ts";
import { createTestDatabase } from "./support/database.ts";

let database: DatabaseHandle;
let t: Awaited<ReturnType<typeof createTestApp>>;
let admin: Record<string, string>;
let client: Record<string, string>;
let wb: { id: number; workbook_name: string };
let existingClient: { c_id: number };

beforeAll(async () => {
  database = await createTestDatabase();
  t = await createTestApp(database, { AUTH_IP_LIMIT_PER_MINUTE: "10000" });
  admin = await headersFor(t, "admin");
  client = await headersFor(t, "client");
  wb = (
    await t.app.inject({
      method: "POST",
      url: "/api/admin/addworkbook",
      headers: admin,
      payload: { workbook_name: "Rules-abcdefghijklmnopqrstuv", team_name: "Rules" },
    })
  ).json().data;
  existingClient = (
    await t.app.inject({
      method: "POST",
      url: "/api/admin/addclient",
      headers: admin,
      payload: {
        clientId: "CL-RULES",
        firstName: "Rule",
        lastName: "Client",
        email: "rule.client@example.com",
        password: "amber-lantern-passphrase",
        privilege: "View",
        workbookIds: [wb.id],
      },
    })
  ).json().data.client;
});
afterAll(async () => {
  await t.app.close();
  await database.close();
});

/** Row counts of everything a write could add to; the audit trail only for what is not a refusal. */
async function counts() {
  const result = (await database.db.execute(sql`select
    (select count(*)::int from users) as users,
    (select count(*)::int from clients) as clients,
    (select count(*)::int from employees) as employees,
    (select count(*)::int from workbooks) as workbooks,
    (select count(*)::int from provisioning_requests) as outbox,
    (select json_agg(json_build_array(first_name, last_name, client_id)) from clients) as names`)) as unknown as {
    rows: unknown[];
  };
  return result.rows[0];
}

const newClient = (overrides: Record<string, unknown>) => ({
  clientId: "CL-NEW",
  firstName: "New",
  lastName: "Client",
  email: "new.client@example.com",
  password: "fresh-meadow-passphrase",
  privilege: "View",
  ...overrides,
});

const expectReadable400 = (
  res: { statusCode: number; json: () => Record<string, unknown> },
  error: RegExp,
) => {
  expect(res.statusCode).toBe(400);
  expect(res.json()).toEqual({
    error: expect.stringMatching(error),
    code: expect.any(String),
    requestId: expect.any(String),
  });
};

describe("text the portal stores", () => {
  it.each([
    ["firstName", "Ann\u0000e", /^First Name must not contain NUL characters\.$/],
    ["lastName", "Smith\u0007", /^Last Name must not contain control characters\.$/],
    ["firstName", "Ann\u001b[31m", /^First Name must not contain control characters\.$/],
    ["firstName", "Ann\r\nBcc: x", /^First Name must be on one line/],
    ["lastName", "Smith\n", /^Last Name must be on one line/],
    ["lastName", "Smith\u2028x", /^Last Name must be on one line/],
    ["firstName", "Ann\uD800", /^First Name contains an invalid character/],
    ["lastName", "\uDC00Smith", /^Last Name contains an invalid character/],
    ["clientId", "CL\u0000", /^Client ID must not contain NUL characters\.$/],
    ["email", "a\u0000@example.com", /^Email must not contain NUL characters\.$/],
    ["password", "long-enough\u0000", /^Password must not contain NUL characters\.$/],
  ])("refuses %s %j with a 400 naming the field, and stores nothing", async (field, value, error) => {
    const before = await counts();
    const res = await t.app.inject({
      method: "POST",
      url: "/api/admin/addclient",
      headers: admin,
      payload: newClient({ [field]: value }),
    });
    expectReadable400(res, error);
    expect(await counts()).toEqual(before);
  });

  it("keeps a tab and real emoji, which are text", async () => {
    const res = await t.app.inject({
      method: "PUT",
      url: "/api/admin/editclient",
      headers: admin,
      payload: {
        cId: existingClient.c_id,
        clientId: "CL-RULES",
        firstName: "Zoë 😀",
        lastName: "A\tB",
        privilege: "View",
      },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ first_name: "Zoë 😀", last_name: "A\tB" });
  });

  it.each([
    [
      "PUT",
      "/api/admin/editclient",
      { cId: 1, clientId: "X", firstName: "A\u0000", lastName: "B", privilege: "View" },
      /^First Name/,
    ],
    [
      "POST",
      "/api/admin/addworkbook",
      { workbook_name: "Rules-abcdefghijklmnopqrstuv\u0000", team_name: "T" },
      /^Workbook Name must not contain NUL/,
    ],
    [
      "POST",
      "/api/admin/addworkbook",
      { workbook_name: "New-abcdefghijklmnopqrstuv", team_name: "T\u0000" },
      /^Team Name must not contain NUL/,
    ],
    [
      "POST",
      "/api/admin/addemployee",
      {
        employeeId: "E",
        firstName: "A",
        lastName: "B\r",
        email: "e@example.com",
        password: "long-enough-pass",
        privilege: "View",
      },
      /^Last Name must be on one line/,
    ],
  ] as const)(
    "%s %s refuses control characters before PostgreSQL sees them",
    async (method, url, payload, error) => {
      const before = await counts();
      const res = await t.app.inject({ method, url, headers: admin, payload });
      expectReadable400(res, error);
      expect(await counts()).toEqual(before);
    },
  );

  it("refuses NUL in list search text and in a workbook id to view", async () => {
    expectReadable400(
      await t.app.inject({ method: "GET", url: "/api/admin/clients?q=a%00b", headers: admin }),
      /^Search text must not contain NUL/,
    );
    expectReadable400(
      await t.app.inject({
        method: "POST",
        url: "/api/sigma/provision-and-embed",
        headers: client,
        payload: { workbookId: "Rules\u0000" },
      }),
      /^workbookId must not contain NUL/,
    );
  });
});

describe("ids", () => {
  it.each([
    "0x10",
    "1.0",
    "%207",
    "7%20",
    "+7",
    "007",
    "1e3",
    "-1",
    "0",
    "2147483648",
    "99999999999999999999",
    "Infinity",
    "NaN",
    "",
  ])("path id %j: 400 or 404 with a readable error, never 5xx, nothing changed", async (id) => {
    for (const [method, url] of [
      ["DELETE", `/api/admin/deleteclient/${id}`],
      ["DELETE", `/api/admin/deleteworkbook/${id}`],
      ["POST", `/api/admin/resyncemployee/${id}`],
      ["PUT", `/api/admin/editworkbook/${id}`],
    ] as const) {
      const before = await counts();
      const res = await t.app.inject({
        method,
        url,
        headers: admin,
        ...(method === "PUT" ? { payload: { workbook_name: wb.workbook_name, team_name: "Rules" } } : {}),
      });
      expect([400, 404], `${method} ${url}`).toContain(res.statusCode);
      expect(res.json().error, url).toMatch(/\w/);
      expect(await counts()).toEqual(before);
    }
  });

  it("reads the canonical spelling as the id", async () => {
    const res = await t.app.inject({
      method: "PUT",
      url: `/api/admin/editworkbook/${wb.id}`,
      headers: admin,
      payload: { workbook_name: wb.workbook_name, team_name: "Rules" },
    });
    expect(res.statusCode).toBe(200);
  });

  it.each([
    ["cId", { cId: 2147483648 }, /^cId must be at most 2147483647/],
    ["cId", { cId: 1.5 }, /^cId must be whole numbers/],
    ["cId", { cId: "7" }, /^cId must be numbers/],
    ["cId", { cId: 1e300 }, /^cId must be (whole numbers|at most)/],
  ])("body id %s %j: 400", async (_name, override, error) => {
    const res = await t.app.inject({
      method: "PUT",
      url: "/api/admin/editclient",
      headers: admin,
      payload: Object.assign(
        { cId: existingClient.c_id, clientId: "CL-RULES", firstName: "A", lastName: "B", privilege: "View" },
        override,
      ),
    });
    expectReadable400(res, error);
  });

  it("refuses out-of-range ids in lists of ids and numbers in list queries spelt otherwise", async () => {
    const before = await counts();
    expectReadable400(
      await t.app.inject({
        method: "POST",
        url: "/api/admin/addclient",
        headers: admin,
        payload: newClient({ workbookIds: [2 ** 31] }),
      }),
      /^Workbook ids must be at most 2147483647/,
    );
    expect(await counts()).toEqual(before);
    for (const query of ["limit=0x10", "limit=1.0", "offset=%201", "offset=1e3", "limit=-1"]) {
      const res = await t.app.inject({ method: "GET", url: `/api/admin/workbooks?${query}`, headers: admin });
      expect(res.statusCode, query).toBe(400);
      expect(res.json().error, query).toMatch(/^(limit|offset) must/);
    }
  });
});

const deepJson = (levels: number) => `${"[".repeat(levels)}${"]".repeat(levels)}`;

describe("body depth and size on every route", () => {
  it.each([
    ["/api/admin/addworkbook", "admin"],
    ["/api/sigma/provision-and-embed", "client"],
    ["/api/auth/sign-in/email", "anonymous"],
    ["/api/auth/sign-up/email", "anonymous"],
    ["/api/auth/two-factor/verify-totp", "anonymous"],
  ])("%s: 100k-deep JSON is a 400", async (url, who) => {
    const headers = who === "admin" ? admin : who === "client" ? client : { origin: ORIGIN };
    const before = await counts();
    const res = await t.app.inject({
      method: "POST",
      url,
      headers: { ...headers, "content-type": "application/json" },
      payload: `{"email":${deepJson(100_000)}}`,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: "BODY_TOO_DEEP", error: expect.stringMatching(/nests deeper/) });
    expect(await counts()).toEqual(before);
  });

  it("lets ordinary nesting through", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/api/admin/addclient",
      headers: { ...admin, "content-type": "application/json" },
      payload: JSON.stringify(newClient({ workbookIds: [[[[1]]]] })),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe("INVALID_INPUT");
  });

  it.each(["application/json", "application/x-www-form-urlencoded"])(
    "/api/auth/sign-up/email: a body over the limit is a 413 with a readable error (%s)",
    async (type) => {
      const name = "n".repeat(300_000);
      const res = await t.app.inject({
        method: "POST",
        url: "/api/auth/sign-up/email",
        headers: { origin: ORIGIN, "content-type": type },
        payload:
          type === "application/json"
            ? JSON.stringify({ name, email: "big@meridian-advisory.example", password: "long-enough-pass" })
            : new URLSearchParams({ name, email: "big@meridian-advisory.example", password: "x" }).toString(),
      });
      expect(res.statusCode).toBe(413);
      expect(res.json()).toMatchObject({ code: "PAYLOAD_TOO_LARGE", error: expect.any(String) });
    },
  );

  it("answers an unsupported body type with the portal's error body", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/api/admin/addworkbook",
      headers: { ...admin, "content-type": "application/xml" },
      payload: "<workbook/>",
    });
    expect(res.statusCode).toBe(415);
    expect(res.json()).toEqual({
      error: expect.stringMatching(/\w/),
      code: "UNSUPPORTED_MEDIA_TYPE",
      requestId: expect.any(String),
    });
  });
});

describe("Better Auth bodies", () => {
  const signUp = (body: Record<string, string>, type = "application/json") =>
    t.app.inject({
      method: "POST",
      url: "/api/auth/sign-up/email",
      headers: { origin: ORIGIN, "content-type": type },
      payload: type === "application/json" ? JSON.stringify(body) : new URLSearchParams(body).toString(),
    });
  const person = (overrides: Record<string, string>) => ({
    name: "New Person",
    email: "new.person@meridian-advisory.example",
    password: "a-long-enough-passphrase",
    ...overrides,
  });

  it.each([
    [{ name: "Eve\u0000" }, /^Full name must not contain NUL characters\.$/],
    [{ name: "Eve\r\nX" }, /^Full name must be on one line/],
    [{ name: "Eve\u0008" }, /^Full name must not contain control characters\.$/],
    [{ name: "Eve\uD83D" }, /^Full name contains an invalid character/],
    [{ name: "n".repeat(201) }, /^Full name must be at most 200 characters\.$/],
    [{ email: "eve\u0000@meridian-advisory.example" }, /^Email must not contain NUL characters\.$/],
    [{ password: "a-long-enough\u0000passphrase" }, /^Password must not contain NUL characters\.$/],
    [{ callbackURL: "/\u0000" }, /^callbackURL must not contain NUL/],
  ])("sign-up %j: 400 naming the field (JSON and form-encoded), no account", async (overrides, error) => {
    // A lone surrogate cannot be form-encoded (URLSearchParams writes U+FFFD): JSON only for that one.
    const broken = Object.values(overrides).some((v) => /[\uD800-\uDFFF]/.test(v));
    for (const type of ["application/json", ...(broken ? [] : ["application/x-www-form-urlencoded"])]) {
      const before = await counts();
      const res = await signUp(person(overrides), type);
      expect(res.statusCode, type).toBe(400);
      expect(res.json(), type).toMatchObject({ error: expect.stringMatching(error), code: "INVALID_INPUT" });
      expect(await counts(), type).toEqual(before);
    }
  });

  it("refuses NUL in a sign-in, a reset request and a second step", async () => {
    for (const [url, body] of [
      ["/api/auth/sign-in/email", { email: "a\u0000@example.com", password: "whatever-it-is" }],
      ["/api/auth/request-password-reset", { email: "a@example.com\u0000" }],
      ["/api/auth/two-factor/verify-totp", { code: "12\u00003456" }],
    ] as const) {
      const res = await t.app.inject({
        method: "POST",
        url,
        headers: { origin: ORIGIN, "content-type": "application/json" },
        payload: JSON.stringify(body),
      });
      expect(res.statusCode, url).toBe(400);
      expect(res.json().error, url).toMatch(/must not contain NUL/);
    }
  });

  it("refuses a field name with control characters", async () => {
    const res = await signUp({ ...person({}), "na\u0000me": "x" });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe("A field name must not contain NUL characters.");
  });

  it("still signs up a well-formed person (the checks stop only bad text)", async () => {
    const res = await signUp(person({ name: "Zoë Ünal", email: "zoe.unal@meridian-advisory.example" }));
    expect(res.statusCode).toBe(200);
  });
});
