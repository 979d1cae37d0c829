/**
 * Fuzz test of every write endpoint: hundreds of malformed requests each (wrong types, NUL, control
 * characters, line breaks, broken surrogates, huge strings, deep nesting, odd ids, every body encoding), generated
 * by fast-check from a fixed seed so a failure reproduces. Each request is malformed on purpose (it carries at
 * least one poison the endpoint must refuse), so: no 5xx, every answer a JSON body with a readable `error` (Better
 * Auth's own answers: `error` or `message`), and not one row added or removed anywhere.
 *
 * FUZZ_RUNS changes the number of requests per endpoint (default 200); FUZZ_SEED the seed.
 */
import { sql } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "../src/db/client.ts";
import { createTestApp, headersFor, ORIGIN } from "./support/app.ts";
import { createTestDatabase } from "./support/database.ts";

const SEED = Number(process.env.FUZZ_SEED ?? 20261124);
const RUNS = Number(process.env.FUZZ_RUNS ?? 200);

let database: DatabaseHandle;
let t: Awaited<ReturnType<typeof createTestApp>>;
const as: Record<string, Record<string, string>> = {};
let existing: {
  wb: { id: number; workbook_name: string };
  client: { c_id: number; client_id: string; email: string };
  employee: { e_id: number; employee_id: string };
  author: { email: string; password: string };
};

beforeAll(async () => {
  database = await createTestDatabase();
  t = await createTestApp(database, { AUTH_IP_LIMIT_PER_MINUTE: "1000000", SIGNIN_MAX_FAILURES: "1000000" });
  as.anonymous = { origin: ORIGIN };
  as.admin = await headersFor(t, "admin");
  as.client = await headersFor(t, "client");
  const author = await t.createUser("author");
  as.author = { cookie: await t.sessionCookie(author.email, author.password), origin: ORIGIN };
  const wb = (
    await t.app.inject({
      method: "POST",
      url: "/api/admin/addworkbook",
      headers: as.admin,
      payload: { workbook_name: "Fuzz-abcdefghijklmnopqrstuv", team_name: "Fuzz" },
    })
  ).json().data;
  const client = (
    await t.app.inject({
      method: "POST",
      url: "/api/admin/addclient",
      headers: as.admin,
      payload: {
        clientId: "CL-FUZZ",
        firstName: "Fuzz",
        lastName: "Client",
        email: "fuzz.client@example.com",
        password: "amber-lantern-passphrase",
        privilege: "View",
        workbookIds: [wb.id],
      },
    })
  ).json().data.client;
  const employee = (
    await t.app.inject({
      method: "POST",
      url: "/api/admin/addemployee",
      headers: as.admin,
      payload: {
        employeeId: "EM-FUZZ",
        firstName: "Fuzz",
        lastName: "Employee",
        email: "fuzz.employee@example.com",
        password: "copper-kettle-passphrase",
        privilege: "View",
        clientIds: [client.c_id],
      },
    })
  ).json().data.employee;
  existing = { wb, client, employee, author };
}, 60_000);
afterAll(async () => {
  await t.app.close();
  await database.close();
});

/** Rows of every table a write endpoint could add to or remove from (the audit trail and rate limits aside). */
async function rowCounts() {
  const result = (await database.db.execute(sql`select
    (select count(*)::int from users) as users,
    (select count(*)::int from accounts) as accounts,
    (select count(*)::int from sessions) as sessions,
    (select count(*)::int from verifications) as verifications,
    (select count(*)::int from two_factor) as two_factor,
    (select count(*)::int from clients) as clients,
    (select count(*)::int from employees) as employees,
    (select count(*)::int from workbooks) as workbooks,
    (select count(*)::int from client_workbooks) as client_workbooks,
    (select count(*)::int from employee_clients) as employee_clients,
    (select count(*)::int from provisioning_requests) as outbox,
    (select count(*)::int from invitations) as invitations,
    (select count(*)::int from invitations where accepted_at is not null or revoked_at is not null
                                               or replaced_at is not null) as invitations_ended`)) as unknown as {
    rows: unknown[];
  };
  return result.rows[0];
}

// ---- Values ----

/** Text that no field may hold. `formSafe`: survives form encoding (a lone surrogate turns into U+FFFD there). */
const badText = (formSafe: boolean) =>
  fc.oneof(
    fc.constantFrom(
      "\u0000",
      "a\u0000b",
      "Ann\r\nBcc: x",
      "x\ny",
      "\u0007",
      "\u001b[2J",
      "\u007f",
      "\u0085",
      "a\u2028b",
    ),
    fc
      .tuple(fc.string({ maxLength: 8 }), fc.integer({ min: 0, max: 0x1f }), fc.string({ maxLength: 8 }))
      .filter(([, c]) => c !== 9)
      .map(([a, c, b]) => `${a}${String.fromCharCode(c)}${b}`),
    ...(formSafe
      ? []
      : [
          fc.constantFrom("\uD800", "x\uDBFF", "\uDC00y", "😀".slice(0, 1)),
          fc.string({ unit: "binary", minLength: 1, maxLength: 12 }).map((s) => `${s}\uD83D`),
        ]),
  );

/** Anything at all, for fields the request does not rely on being refused. */
const anyValue: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: "small" },
    fc.string({ unit: "binary", maxLength: 40 }),
    fc.constantFrom(
      "",
      " ",
      "0x10",
      "1.0",
      " 7",
      "2147483648",
      "-1",
      "null",
      "true",
      "__proto__",
      "x".repeat(5000),
    ),
    fc.integer(),
    fc.constantFrom(0, -1, 1.5, 2 ** 31, 2 ** 53 + 1, 1e308, -0),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie("value"), { maxLength: 4 }),
    fc.dictionary(fc.string({ maxLength: 8 }), tie("value"), { maxKeys: 4 }),
  ),
})).value;

/** Ids that are not canonical decimal integers in range, and ones in range that name nothing. */
const oddId = fc.oneof(
  fc.constantFrom(
    "0x10",
    "1.0",
    " 7",
    "7 ",
    "+7",
    "007",
    "1e3",
    "-1",
    "0",
    "2147483648",
    "9".repeat(30),
    "NaN",
    "Infinity",
    "1/2",
    "..",
    "%00",
    "%2e",
  ),
  fc.integer({ min: 100_000, max: 2_147_483_647 }).map(String),
  fc
    .string({ unit: "binary", minLength: 1, maxLength: 12 })
    .map((s) => encodeURIComponent(s.replace(/[\uD800-\uDFFF]/g, "x")))
    // Never the canonical id of a row that exists: a fuzzed DELETE must not hit one.
    .filter((s) => !/^[0-9]+$/.test(s)),
);
const badBodyId = fc.constantFrom<unknown>(0, -1, 1.5, 2 ** 31, 1e300, "7", "0x10", null, true, [], {}, [1]);
const badIdList = fc.constantFrom<unknown>(
  [2 ** 31],
  ["1"],
  [1.5],
  [-1],
  [[1]],
  "1,2",
  7,
  null,
  {},
  Array(6000).fill(1),
);

// ---- Requests ----

type Encoding = "json" | "form" | "multipart" | "text" | "broken-json" | "deep-json" | "huge-json" | "none";
interface Fuzzed {
  body: Record<string, unknown> | unknown;
  encoding: Encoding;
  id?: string;
  spelling: boolean;
}

/** A field of a request body and the values that must make the endpoint refuse it. */
interface Field {
  name: string;
  valid: unknown;
  /** Values refused whatever the other fields hold (absent included where `required`). */
  poison: (formSafe: boolean) => fc.Arbitrary<unknown>;
  required?: boolean;
}

const MISSING = Symbol("missing");
const text = (valid: string, max: number, required = true): Field => ({
  name: "",
  valid,
  required,
  poison: (formSafe) =>
    fc.oneof(
      badText(formSafe),
      // Form encoding turns every value into text, so only text poisons stay poisons there.
      fc.constantFrom<unknown>(`${"x".repeat(max)}y`, ...(formSafe ? [] : [42, true, ["a"], { a: 1 }, null])),
      ...(required ? [fc.constant(MISSING)] : []),
    ),
});
const named = (name: string, field: Field): Field => ({ ...field, name });

/**
 * A malformed body: the valid body with one field poisoned, then up to two other fields set to anything
 * (or removed, or an unknown field added). `strict`: unknown fields are refused (the portal's own routes), so
 * an added one is a poison too.
 */
function malformedBody(fields: Field[], formSafe: boolean): fc.Arbitrary<Record<string, unknown>> {
  return fc
    .record({
      poisoned: fc.integer({ min: 0, max: fields.length - 1 }),
      poison: fc.oneof(...fields.map((f) => f.poison(formSafe))),
      others: fc.array(fc.tuple(fc.integer({ min: 0, max: fields.length - 1 }), anyValue), { maxLength: 2 }),
      extra: fc.option(fc.tuple(fc.string({ unit: "binary", maxLength: 10 }), anyValue), { nil: undefined }),
    })
    .chain(({ poisoned, others, extra }) =>
      fields[poisoned]!.poison(formSafe).map((poison) => {
        const body: Record<string, unknown> = {};
        for (const field of fields) body[field.name] = field.valid;
        for (const [index, value] of others) if (index !== poisoned) body[fields[index]!.name] = value;
        if (extra && !fields.some((f) => f.name === extra[0]) && !/[\uD800-\uDFFF]/.test(extra[0])) {
          body[extra[0]] = extra[1];
        }
        if (poison === MISSING) delete body[fields[poisoned]!.name];
        else body[fields[poisoned]!.name] = poison;
        return body;
      }),
    );
}

function fuzzed(fields: Field[], options: { id?: fc.Arbitrary<string>; encodings?: Encoding[] } = {}) {
  const encodings = options.encodings ?? [
    "json",
    "json",
    "json",
    "form",
    "multipart",
    "text",
    "broken-json",
    "deep-json",
    "huge-json",
    "none",
  ];
  return fc.constantFrom(...encodings).chain((encoding) =>
    fc.record({
      body: fields.length ? malformedBody(fields, encoding === "form") : anyValue,
      encoding: fc.constant(encoding),
      id: options.id ?? fc.constant(undefined),
      spelling: fc.boolean(),
    }),
  ) as fc.Arbitrary<Fuzzed>;
}

function encode(request: Fuzzed): { payload?: string; contentType?: string } {
  const body = request.body;
  const flat = () =>
    Object.entries((body ?? {}) as Record<string, unknown>).map(
      ([k, v]) => [k, typeof v === "string" ? v : (JSON.stringify(v) ?? "")] as [string, string],
    );
  switch (request.encoding) {
    case "json":
      return { payload: JSON.stringify(body), contentType: "application/json" };
    case "form":
      return {
        payload: new URLSearchParams(flat()).toString(),
        contentType: "application/x-www-form-urlencoded",
      };
    case "multipart": {
      const boundary = "fuzzboundary7MA4YWxk";
      const parts = flat().map(
        ([k, v]) =>
          `--${boundary}\r\nContent-Disposition: form-data; name="${k.replace(/"/g, "")}"\r\n\r\n${v}\r\n`,
      );
      return {
        payload: `${parts.join("")}--${boundary}--\r\n`,
        contentType: `multipart/form-data; boundary=${boundary}`,
      };
    }
    case "text":
      return { payload: JSON.stringify(body), contentType: "text/plain" };
    case "broken-json":
      return { payload: JSON.stringify(body).slice(0, -1) + ",", contentType: "application/json" };
    case "deep-json":
      return {
        payload: `{"a":${"[".repeat(100_000)}${"]".repeat(100_000)}}`,
        contentType: "application/json",
      };
    case "huge-json":
      return {
        payload: JSON.stringify({ ...(body as object), pad: "x".repeat(300_000) }),
        contentType: "application/json",
      };
    case "none":
      return {};
  }
}

/** `/api/...` or the same path spelt `/%61pi/...` (the router reads both as one). */
const spelt = (url: string, spelling: boolean) =>
  spelling && url.startsWith("/api/") ? `/%61pi${url.slice(4)}` : url;

interface Endpoint {
  name: string;
  method: "POST" | "PUT" | "DELETE";
  url: (id?: string) => string;
  who: "admin" | "client" | "author" | "anonymous";
  requests: () => fc.Arbitrary<Fuzzed>;
}

const email = (valid: string, required = true) =>
  ({
    ...text(valid, 254, required),
    poison: (formSafe: boolean) =>
      fc.oneof(
        text(valid, 254, required).poison(formSafe),
        fc.constantFrom("not-an-email", "a@b", "@example.com", "a b@example.com"),
      ),
  }) as Field;
const privilege: Field = {
  name: "privilege",
  valid: "View",
  required: true,
  poison: () => fc.constantFrom<unknown>("view", "Admin", "", 1, null, ["View"], MISSING),
};
const bodyId = (name: string, valid: () => number): Field => ({
  name,
  get valid() {
    return valid();
  },
  required: true,
  poison: () => fc.oneof(badBodyId, fc.constant(MISSING)),
});
/** Lists of ids: malformed, or well-formed and naming nothing (the service must refuse, not the database). */
const idList = (name: string): Field => ({
  name,
  valid: [],
  poison: () =>
    fc.oneof(
      badIdList,
      fc.array(fc.integer({ min: 100_000, max: 2_147_483_647 }), { minLength: 1, maxLength: 3 }),
    ),
});
/** A business id or email someone already has: a well-formed add that must be refused (409). */
const taken = (field: Field, value: () => string): Field => ({
  ...field,
  poison: (formSafe) =>
    fc.oneof(
      field.poison(formSafe),
      fc.constant(null).map(() => value()),
    ),
});

const adminPaths = {
  addclient: () => [
    taken(named("clientId", text("CL-NEW-FUZZ", 64)), () => existing.client.client_id),
    named("firstName", text("New", 100)),
    named("lastName", text("Client", 100)),
    taken(named("email", email("new.fuzz@example.com")), () => existing.client.email),
    named("password", text("new-fuzz-passphrase", 128)),
    privilege,
    idList("workbookIds"),
  ],
  addemployee: () => [
    taken(named("employeeId", text("EM-NEW-FUZZ", 64)), () => existing.employee.employee_id),
    named("firstName", text("New", 100)),
    named("lastName", text("Employee", 100)),
    named("email", email("new.fuzz.employee@example.com")),
    named("password", text("new-fuzz-passphrase", 128)),
    privilege,
    idList("clientIds"),
  ],
  editclient: () => [
    bodyId("cId", () => existing.client.c_id),
    named("clientId", text("CL-FUZZ", 64)),
    named("firstName", text("Fuzz", 100)),
    named("lastName", text("Client", 100)),
    privilege,
  ],
  editemployee: () => [
    bodyId("eId", () => existing.employee.e_id),
    named("employeeId", text("EM-FUZZ", 64)),
    named("firstName", text("Fuzz", 100)),
    named("lastName", text("Employee", 100)),
    privilege,
    idList("clientIds"),
  ],
  /** Add Client / Add Employee with "Send an invitation" (D55): no password, `invite: true`. */
  invite: {
    name: "invite",
    valid: true,
    required: true,
    poison: () => fc.constantFrom<unknown>("true", "yes", 1, null, [], {}, [true]),
  } as Field,
  workbook: () => [
    named("workbook_name", text("Fuzz-abcdefghijklmnopqrstuv", 200)),
    named("team_name", text("Fuzz", 200)),
  ],
};

const idRoutes: [string, "POST" | "DELETE"][] = [
  ["deleteclient", "DELETE"],
  ["deleteemployee", "DELETE"],
  ["deleteworkbook", "DELETE"],
  ["resyncclient", "POST"],
  ["resyncemployee", "POST"],
  ["resettwofactorclient", "POST"],
  ["resettwofactoremployee", "POST"],
  ["revokesessionsclient", "POST"],
  ["revokesessionsemployee", "POST"],
];

const signUpFields = () => [
  named("name", text("Fuzz Person", 200)),
  named("email", email("fuzz.person@meridian-advisory.example")),
  named("password", text("a-long-enough-passphrase", 128)),
];

const endpoints: Endpoint[] = [
  {
    name: "PUT /api/admin/settings",
    method: "PUT",
    url: () => "/api/admin/settings",
    who: "admin",
    requests: () =>
      fuzzed([
        named("firmName", text("Fuzz Advisors", 100)),
        {
          ...named("primaryColour", text("#13233f", 7)),
          // Colours white text cannot be read on (below 4.5:1), and other spellings of a colour.
          poison: (formSafe) =>
            fc.oneof(
              text("#13233f", 7).poison(formSafe),
              fc.constantFrom("#c8c8c8", "#ffffff", "#7f7f7f", "#FFF", "navy", "rgb(0,0,0)", "#13233f;x"),
            ),
        },
        named("supportEmail", email("help@example.com")),
      ]),
  },
  {
    name: "POST /api/admin/addclient",
    method: "POST",
    url: () => "/api/admin/addclient",
    who: "admin",
    requests: () => fuzzed(adminPaths.addclient()),
  },
  {
    name: "POST /api/admin/addemployee",
    method: "POST",
    url: () => "/api/admin/addemployee",
    who: "admin",
    requests: () => fuzzed(adminPaths.addemployee()),
  },
  {
    name: "POST /api/admin/addclient (invitation)",
    method: "POST",
    url: () => "/api/admin/addclient",
    who: "admin",
    requests: () =>
      fuzzed([...adminPaths.addclient().filter((f) => f.name !== "password"), adminPaths.invite]),
  },
  {
    name: "POST /api/admin/addemployee (invitation)",
    method: "POST",
    url: () => "/api/admin/addemployee",
    who: "admin",
    requests: () =>
      fuzzed([...adminPaths.addemployee().filter((f) => f.name !== "password"), adminPaths.invite]),
  },
  ...(
    [
      ["POST", "invitations/{kind}/{id}/resend", (k: string) => `/api/admin/invitations/${k}/resend`],
      ["DELETE", "invitations/{kind}/{id}", (k: string) => `/api/admin/invitations/${k}`],
      ["POST", "password-reset/{kind}/{id}", (k: string) => `/api/admin/password-reset/${k}`],
    ] as const
  ).map(([method, path, url]): Endpoint => ({
    // Odd ids and kinds; for Resend and Revoke also people with no invitation to resend or revoke (409).
    name: `${method} /api/admin/${path} (odd kind or id)`,
    method,
    url: (id) => url(id!),
    who: "admin",
    requests: () =>
      fuzzed([], {
        id: fc.oneof(
          oddId.map((id) => `client/${id}`),
          oddId.map((id) => `employee/${id}`),
          fc.constantFrom("manager", "Client", "CLIENT", "client%00", "", "..").map((kind) => `${kind}/1`),
          ...(path.startsWith("invitations")
            ? [fc.constant(null).map(() => `client/${existing.client.c_id}`)]
            : []),
        ),
      }),
  })),
  {
    name: "POST /api/invitations/lookup",
    method: "POST",
    url: () => "/api/invitations/lookup",
    who: "anonymous",
    requests: () =>
      fuzzed([
        {
          ...named("token", text("A".repeat(43), 43)),
          poison: (formSafe) =>
            fc.oneof(text("", 43).poison(formSafe), fc.constantFrom("A".repeat(43), "short", "B".repeat(44))),
        },
      ]),
  },
  {
    name: "POST /api/invitations/accept",
    method: "POST",
    url: () => "/api/invitations/accept",
    who: "anonymous",
    requests: () =>
      fuzzed([
        {
          ...named("token", text("A".repeat(43), 43)),
          // A well-formed token of no invitation is refused too (404): nothing may be set by guessing.
          poison: (formSafe) =>
            fc.oneof(text("", 43).poison(formSafe), fc.constantFrom("A".repeat(43), "short", "B".repeat(44))),
        },
        named("password", text("granite-willow-passphrase", 128)),
      ]),
  },
  {
    name: "PUT /api/admin/editclient",
    method: "PUT",
    url: () => "/api/admin/editclient",
    who: "admin",
    requests: () => fuzzed(adminPaths.editclient()),
  },
  {
    name: "PUT /api/admin/editemployee",
    method: "PUT",
    url: () => "/api/admin/editemployee",
    who: "admin",
    requests: () => fuzzed(adminPaths.editemployee()),
  },
  {
    name: "POST /api/admin/addworkbook",
    method: "POST",
    url: () => "/api/admin/addworkbook",
    who: "admin",
    requests: () => fuzzed(adminPaths.workbook()),
  },
  {
    name: "PUT /api/admin/editworkbook/{id} (bad body)",
    method: "PUT",
    url: () => `/api/admin/editworkbook/${existing.wb.id}`,
    who: "admin",
    requests: () => fuzzed(adminPaths.workbook()),
  },
  {
    name: "PUT /workbooks/editworkbook/{id} (odd id)",
    method: "PUT",
    url: (id) => `/workbooks/editworkbook/${id}`,
    who: "admin",
    requests: () =>
      fuzzed([], { id: oddId, encodings: ["json", "none"] }).map((r) => ({
        ...r,
        body: { workbook_name: existing.wb.workbook_name, team_name: "Fuzz" },
      })),
  },
  ...idRoutes.map(([path, method]): Endpoint => ({
    name: `${method} /api/admin/${path}/{odd id}`,
    method,
    url: (id) => `/api/admin/${path}/${id}`,
    who: "admin",
    requests: () => fuzzed([], { id: oddId }),
  })),
  {
    // Odd ids, and well-formed ids of no session of theirs: nothing is signed out.
    name: "DELETE /api/me/sessions/{odd id}",
    method: "DELETE",
    url: (id) => `/api/me/sessions/${id}`,
    who: "client",
    requests: () => fuzzed([], { id: fc.oneof(oddId, fc.uuid()) }),
  },
  {
    name: "POST /api/sigma/provision-and-embed",
    method: "POST",
    url: () => "/api/sigma/provision-and-embed",
    who: "client",
    requests: () =>
      fuzzed([
        {
          ...named("workbookId", text("Fuzz-abcdefghijklmnopqrstuv", 200)),
          poison: (formSafe) =>
            fc.oneof(
              text("", 200).poison(formSafe),
              fc.constantFrom("Unknown-abcdefghijklmnopqrstuv", "   "),
            ),
        },
      ]),
  },
  {
    name: "POST /api/sigma/provision",
    method: "POST",
    url: () => "/api/sigma/provision",
    who: "author",
    requests: () =>
      fuzzed([
        named("name", text("Fuzz Author", 200)),
        {
          ...email("someone.else@example.com"),
          name: "email",
          poison: () =>
            fc.constantFrom<unknown>("someone.else@example.com", "", 7, null, "a\u0000@example.com"),
        },
        {
          name: "role",
          valid: "author",
          required: true,
          poison: () => fc.constantFrom<unknown>("admin", "client", "", 1, null, MISSING),
        },
      ]),
  },
  {
    name: "POST /api/auth/sign-up/email",
    method: "POST",
    url: () => "/api/auth/sign-up/email",
    who: "anonymous",
    requests: () => fuzzed(signUpFields()),
  },
  {
    name: "POST /api/auth/sign-in/email",
    method: "POST",
    url: () => "/api/auth/sign-in/email",
    who: "anonymous",
    requests: () =>
      fuzzed([
        named("email", email(existing.author.email)),
        {
          ...named("password", text(existing.author.password, 128)),
          poison: (formSafe) => fc.oneof(text("", 128).poison(formSafe), fc.constant("wrong-password-here")),
        },
      ]),
  },
  {
    name: "POST /api/auth/request-password-reset",
    method: "POST",
    url: () => "/api/auth/request-password-reset",
    who: "anonymous",
    requests: () =>
      fuzzed([
        named("email", email(existing.client.email)),
        named("redirectTo", {
          ...text("/reset-password", 200, false),
          poison: (formSafe) => badText(formSafe),
        }),
      ]),
  },
  {
    name: "POST /api/auth/reset-password",
    method: "POST",
    url: () => "/api/auth/reset-password",
    who: "anonymous",
    requests: () =>
      fuzzed([
        named("newPassword", text("a-long-enough-passphrase", 128)),
        named("token", text("not-a-real-token", 200)),
      ]),
  },
  {
    name: "POST /api/auth/two-factor/verify-totp",
    method: "POST",
    url: () => "/api/auth/two-factor/verify-totp",
    who: "anonymous",
    requests: () => fuzzed([named("code", text("123456", 6))]),
  },
  {
    name: "POST /api/auth/two-factor/verify-backup-code",
    method: "POST",
    url: () => "/api/auth/two-factor/verify-backup-code",
    who: "anonymous",
    requests: () => fuzzed([named("code", text("ABCDE-FGHIJ", 20))]),
  },
  {
    name: "POST /api/auth/two-factor/enable (signed in)",
    method: "POST",
    url: () => "/api/auth/two-factor/enable",
    who: "author",
    requests: () =>
      fuzzed([
        {
          ...named("password", text(existing.author.password, 128)),
          poison: (formSafe) => fc.oneof(text("", 128).poison(formSafe), fc.constant("wrong-password-here")),
        },
      ]),
  },
];

describe.each(endpoints)("$name", (endpoint) => {
  it(`answers ${RUNS} malformed requests with readable 4xx and changes no row`, async () => {
    const before = await rowCounts();
    const isAuth = endpoint.url("1").startsWith("/api/auth/");
    let n = 0;
    await fc.assert(
      fc.asyncProperty(endpoint.requests(), async (request) => {
        n += 1;
        const { payload, contentType } = encode(request);
        const res = await t.app.inject({
          method: endpoint.method,
          url: spelt(endpoint.url(request.id), request.spelling),
          headers: { ...as[endpoint.who], ...(contentType ? { "content-type": contentType } : {}) },
          // A fresh address each time, so Better Auth's per-address limits do not end the run early.
          remoteAddress: `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`,
          ...(payload === undefined ? {} : { payload }),
        });
        const where = `${endpoint.name} ${request.encoding} → ${res.statusCode} ${res.body.slice(0, 300)}`;
        expect(res.statusCode, where).toBeGreaterThanOrEqual(400);
        expect(res.statusCode, where).toBeLessThan(500);
        let answer: Record<string, unknown> | null = null;
        try {
          answer = JSON.parse(res.body) as Record<string, unknown>;
        } catch {
          /* asserted below */
        }
        const message = answer?.error ?? (isAuth ? answer?.message : undefined);
        expect(typeof message === "string" && /\w/.test(message), where).toBe(true);
        if (!isAuth) {
          expect(answer, where).toMatchObject({ code: expect.any(String), requestId: expect.any(String) });
        }
      }),
      { seed: SEED, numRuns: RUNS, endOnFailure: true },
    );
    expect(await rowCounts(), endpoint.name).toEqual(before);
  }, 120_000);
});
