/**
 * Fuzz test of every write endpoint: hundreds of malformed requests each (wrong types, NUL, control
 * characters, line breaks, broken surrogates, huge strings, deep nesting, odd ids, every body encoding), generated
 * by fast-check from a fixed seed so a failure reproduces. Each request is malformed on purpose (it carries at
 * least one poison the endpoint must refuse), so: no 5xx, every answer a JSON body with a readable `error` (Better
 * Auth's own answers: `error` or `message`), not one row added or removed anywhere, and no delegation, household
 * or firm policy changed.
 *
 * Better Auth's own write endpoints are listed from its router (every POST endpoint with a body, less
 * DISABLED_AUTH_PATHS), so one a plugin adds is fuzzed without being named here; each gets a fixed set of
 * malformed bodies (issue 24, build point 6) as a signed-in person whose name, passkey and BI member must not
 * change.
 *
 * FUZZ_RUNS changes the number of requests per endpoint (default 200); FUZZ_SEED the seed.
 */
import { isApiErrorCode } from "@portal/contracts";
import { sql } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DISABLED_AUTH_PATHS } from "../src/auth/auth.ts";
import type { DatabaseHandle } from "../src/db/client.ts";
import { passkeys } from "../src/db/schema.ts";
import { cookieHeader, createTestApp, headersFor, ORIGIN } from "./support/app.ts";
import { createTestDatabase } from "./support/database.ts";
import { startSmtpServer } from "./support/smtp.ts";

const SEED = Number(process.env.FUZZ_SEED ?? 20261124);
const RUNS = Number(process.env.FUZZ_RUNS ?? 200);

let database: DatabaseHandle;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let t: Awaited<ReturnType<typeof createTestApp>>;
const as: Record<string, Record<string, string>> = {};
/** `as.profile`: a delegate (their BI member is named by their account) with a passkey, for Better Auth's writes. */
let profile: { userId: string; passkeyId: string };
interface Client {
  c_id: number;
  client_id: string;
  email: string;
}
interface Delegation {
  id: number;
  email: string;
  /** The invitation link's token, as mailed. */
  token: string;
}
let existing: {
  wb: { id: number; workbook_name: string };
  /** A workbook not assigned to `client`: it cannot share it. */
  otherWb: { id: number; workbook_name: string };
  /** Signed in as `as.owner`; in `household`. */
  client: Client;
  /** In `otherHousehold`, with a delegation of their own (`theirs`). */
  other: Client;
  /** In no household. */
  free: Client;
  employee: { e_id: number; employee_id: string };
  author: { email: string; password: string };
  /** `client`'s delegate invited with a new address: the account has no password yet. */
  delegate: Delegation;
  /** `client`'s delegate invited with the employee's address: the account already has a password. */
  signsIn: Delegation;
  /** `other`'s delegate. */
  theirs: Delegation;
  household: { id: number };
  otherHousehold: { id: number };
};

async function addWorkbook(workbook_name: string) {
  const res = await t.app.inject({
    method: "POST",
    url: "/api/admin/addworkbook",
    headers: as.admin,
    payload: { workbook_name, team_name: "Fuzz" },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data as { id: number; workbook_name: string };
}

async function addClient(clientId: string, email: string, password: string, workbookIds: number[]) {
  const res = await t.app.inject({
    method: "POST",
    url: "/api/admin/addclient",
    headers: as.admin,
    payload: {
      clientId,
      firstName: "Fuzz",
      lastName: "Client",
      email,
      password,
      privilege: "View",
      workbookIds,
    },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data.client as Client;
}

/** A delegation made through the API (the client's own route, or the admin's), with its mailed token. */
async function delegation(url: string, headers: Record<string, string>, body: Record<string, unknown>) {
  const res = await t.app.inject({ method: "POST", url, headers, payload: body });
  expect(res.statusCode, res.body).toBe(201);
  const email = body.email as string;
  const mail = await smtp.nextMailTo(email);
  const link = new URL(mail.text.match(/https?:\/\/\S+\/invitation\?token=\S+/)![0]);
  return { id: res.json().delegate.id as number, email, token: link.searchParams.get("token")! };
}

async function household(name: string, clientIds: number[], combinedView: boolean) {
  const res = await t.app.inject({
    method: "POST",
    url: "/api/admin/households",
    headers: as.admin,
    payload: { name, clientIds, combinedView },
  });
  expect(res.statusCode, res.body).toBe(201);
  return { id: res.json().household.id as number };
}

beforeAll(async () => {
  database = await createTestDatabase();
  smtp = await startSmtpServer();
  t = await createTestApp(database, {
    AUTH_IP_LIMIT_PER_MINUTE: "1000000",
    SIGNIN_MAX_FAILURES: "1000000",
    EMBED_RATE_LIMIT_PER_MINUTE: "1000000",
    SMTP_URL: smtp.url,
  });
  as.anonymous = { origin: ORIGIN };
  as.admin = await headersFor(t, "admin");
  as.client = await headersFor(t, "client");
  const author = await t.createUser("author");
  as.author = { cookie: await t.sessionCookie(author.email, author.password), origin: ORIGIN };
  const person = await t.createUser("delegate", { name: "Fuzz Profile" });
  as.profile = { cookie: await t.sessionCookie(person.email, person.password), origin: ORIGIN };
  profile = { userId: person.userId, passkeyId: crypto.randomUUID() };
  await database.db.insert(passkeys).values({
    id: profile.passkeyId,
    name: "Fuzz Key",
    publicKey: "AAAA",
    userId: person.userId,
    credentialID: "ZnV6ei1jcmVkZW50aWFs",
    counter: 0,
    deviceType: "singleDevice",
    backedUp: false,
  });
  const wb = await addWorkbook("Fuzz-abcdefghijklmnopqrstuv");
  const otherWb = await addWorkbook("Fuzz-Other-bcdefghijklmnopqrstuvw");
  const client = await addClient("CL-FUZZ", "fuzz.client@example.com", "amber-lantern-passphrase", [wb.id]);
  as.owner = { cookie: await t.sessionCookie(client.email, "amber-lantern-passphrase"), origin: ORIGIN };
  const other = await addClient("CL-FUZZ-2", "fuzz.other@example.com", "tidal-granite-passphrase", [wb.id]);
  const free = await addClient("CL-FUZZ-3", "fuzz.free@example.com", "quiet-harbour-passphrase", []);
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
  as.employee = {
    cookie: await t.sessionCookie("fuzz.employee@example.com", "copper-kettle-passphrase"),
    origin: ORIGIN,
  };
  const delegate = await delegation("/api/me/delegates", as.owner, {
    email: "fuzz.delegate@example.com",
    name: "Fuzz Delegate",
    workbookIds: [wb.id],
  });
  const signsIn = await delegation("/api/me/delegates", as.owner, {
    email: "fuzz.employee@example.com",
    name: "Fuzz Employee",
  });
  const theirs = await delegation(`/api/admin/clients/${other.c_id}/delegates`, as.admin, {
    email: "fuzz.other.delegate@example.com",
    name: "Other Delegate",
  });
  existing = {
    wb,
    otherWb,
    client,
    other,
    free,
    employee,
    author,
    delegate,
    signsIn,
    theirs,
    household: await household("Fuzz Household", [client.c_id], false),
    otherHousehold: await household("Other Household", [other.c_id], true),
  };
  const policy = await t.app.inject({
    method: "PUT",
    url: "/api/admin/settings/delegation",
    headers: as.admin,
    payload: { clientsMayInvite: true },
  });
  expect(policy.statusCode, policy.body).toBe(200);
}, 60_000);
afterAll(async () => {
  await t.app.close();
  await smtp.close();
  await database.close();
});

/**
 * Rows of every table a write endpoint could add to or remove from (the audit trail, rate limits and the
 * passkey challenges the fuzz asks for aside), what a change of a delegation, a household or the firm's policies
 * would leave, and every account's and passkey's state.
 */
async function rowCounts() {
  const result = (await database.db.execute(sql`select
    (select count(*)::int from users) as users,
    (select count(*)::int from accounts) as accounts,
    (select count(*)::int from sessions) as sessions,
    (select count(*)::int from verifications where value not like '%"expectedChallenge"%') as verifications,
    (select count(*)::int from two_factor) as two_factor,
    (select count(*)::int from clients) as clients,
    (select count(*)::int from employees) as employees,
    (select count(*)::int from workbooks) as workbooks,
    (select count(*)::int from client_workbooks) as client_workbooks,
    (select count(*)::int from employee_clients) as employee_clients,
    (select count(*)::int from provisioning_requests) as outbox,
    (select count(*)::int from invitations) as invitations,
    (select count(*)::int from invitations where accepted_at is not null or revoked_at is not null
                                               or replaced_at is not null) as invitations_ended,
    (select count(*)::int from delegations) as delegations,
    (select count(*)::int from delegation_workbooks) as delegation_workbooks,
    (select count(*)::int from households) as households,
    (select count(*)::int from household_members) as household_members,
    (select count(*)::int from firm_policies) as firm_policies,
    (select json_agg(json_build_array(id, name, credential_id, counter) order by id) from passkeys) as passkeys,
    (select json_agg(json_build_array(id, name, email, role, two_factor_enabled, image, updated_at) order by id)
       from users) as user_states`)) as unknown as {
    rows: unknown[];
  };
  const circle = (await database.db.execute(sql`select
    (select json_agg(json_build_array(id, c_id, user_id, all_workbooks, expires_at, accepted_at) order by id)
       from delegations) as delegation_terms,
    (select json_agg(json_build_array(delegation_id, workbook_id) order by delegation_id, workbook_id)
       from delegation_workbooks) as shared,
    (select json_agg(json_build_array(id, name, combined_view, updated_at) order by id)
       from households) as household_states,
    (select json_agg(json_build_array(household_id, c_id) order by household_id, c_id)
       from household_members) as members,
    (select json_agg(json_build_array(id, clients_may_invite, updated_at) order by id)
       from firm_policies) as policies`)) as unknown as { rows: unknown[] };
  return { ...(result.rows[0] as object), ...(circle.rows[0] as object) };
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
  method: "POST" | "PUT" | "PATCH" | "DELETE";
  url: (id?: string) => string;
  /**
   * `client`: a client's account without a client record; `owner`: `existing.client`, signed in; `employee`:
   * `existing.employee`, whose delegation of `existing.client` is not accepted yet.
   */
  who: "admin" | "client" | "owner" | "employee" | "author" | "anonymous";
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

/** Ids of no client: malformed, or in range and naming nothing. */
const unknownIds = () =>
  fc.oneof(
    badIdList,
    fc.array(fc.integer({ min: 100_000, max: 2_147_483_647 }), { minLength: 1, maxLength: 3 }),
  );

const nextYear = new Date().getUTCFullYear() + 1;

/** A delegate's workbooks: only the client's own may be shared. `nullable`: null shares all (a change). */
const sharedWorkbooks = (nullable: boolean): Field => ({
  name: "workbookIds",
  get valid() {
    return [existing.wb.id];
  },
  poison: () =>
    fc.oneof(
      unknownIds().filter((ids) => !(nullable && ids === null)),
      fc.constantFrom<unknown>([], Array(501).fill(1)),
      fc.constant(null).map(() => [existing.otherWb.id]),
      fc.constant(null).map(() => [existing.wb.id, existing.otherWb.id]),
    ),
});

/** The end of a delegate's access: a future date within ten years, or null. */
const expiresAt: Field = {
  name: "expiresAt",
  valid: `${nextYear}-06-30`,
  poison: (formSafe) =>
    fc.oneof(
      badText(formSafe),
      fc.constantFrom<unknown>(
        "",
        "2020-01-01",
        "2020-01-01T00:00:00Z",
        `${nextYear}-02-30`,
        `${nextYear}-13-01`,
        `${nextYear + 11}-01-01`,
        `${nextYear}-06-30T12:00:00`,
        `${nextYear}-06-30T25:00:00Z`,
        `+0${nextYear}-06-30`,
        "9999-12-31T23:59:59Z",
        "31/12/2030",
        "tomorrow",
        "null",
        ...(formSafe ? [] : [0, Date.now() + 86_400_000, true, [], {}]),
      ),
    ),
};

/** An invitation of a delegate: taken addresses are the client's own (400) and a delegate's already (409). */
const delegateInvite = (): Field[] => [
  {
    ...named("email", email("new.fuzz.delegate@example.com")),
    poison: (formSafe) =>
      fc.oneof(
        email("x").poison(formSafe),
        fc.constantFrom("new_fuzz@example.com", "FUZZ.DELEGATE@EXAMPLE.COM"),
        fc.constant(null).map(() => existing.client.email),
        fc.constant(null).map(() => existing.delegate.email),
        fc.constant(null).map(() => existing.signsIn.email),
      ),
  },
  named("name", text("New Delegate", 100)),
  sharedWorkbooks(false),
  expiresAt,
];

/** A household's body; `taken`: a client already in another household (409). */
const householdFields = (valid: () => number, taken: () => number): Field[] => [
  named("name", text("Fuzz Household", 100)),
  {
    name: "clientIds",
    get valid() {
      return [valid()];
    },
    required: true,
    poison: () =>
      fc.oneof(
        unknownIds(),
        fc.constantFrom<unknown>(
          [],
          Array.from({ length: 51 }, (_, i) => i + 1),
          MISSING,
        ),
        fc.constant(null).map(() => [taken()]),
        fc.constant(null).map(() => [valid(), taken()]),
      ),
  },
  {
    name: "combinedView",
    valid: false,
    required: true,
    poison: () => fc.constantFrom<unknown>("true", "false", "on", 1, 0, null, [], {}, [true], MISSING),
  },
];

/** `POST /api/invitations/accept` with a delegate's real link; `password`: the password field's poisons. */
const acceptLink = (token: () => string, password: (formSafe: boolean) => fc.Arbitrary<unknown>): Field[] => [
  {
    name: "token",
    get valid() {
      return token();
    },
    required: true,
    poison: (formSafe) =>
      fc.oneof(
        text("", 43).poison(formSafe),
        fc.constantFrom("A".repeat(43), "short"),
        fc.constant(null).map(() => `${token().slice(0, -1)}${token().endsWith("A") ? "B" : "A"}`),
      ),
  },
  { name: "password", valid: "granite-willow-passphrase", poison: password },
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
          fc
            .constantFrom("manager", "Client", "CLIENT", "client%00", "", "..", "delegate")
            .map((kind) => `${kind}/1`),
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
        named("password", text("granite-willow-passphrase", 128, false)),
      ]),
  },
  {
    name: "POST /api/invitations/accept (a delegate's link, account without a password)",
    method: "POST",
    url: () => "/api/invitations/accept",
    who: "anonymous",
    requests: () =>
      fuzzed(
        acceptLink(
          () => existing.delegate.token,
          (formSafe) =>
            fc.oneof(
              text("granite-willow-passphrase", 128).poison(formSafe),
              fc.constantFrom("short", "password123", "fuzz-delegate-2027"),
            ),
        ),
      ),
  },
  {
    // The account already signs in: accepting sets no password, so any password sent is refused.
    name: "POST /api/invitations/accept (a delegate's link, account with a password)",
    method: "POST",
    url: () => "/api/invitations/accept",
    who: "anonymous",
    requests: () =>
      fuzzed(
        acceptLink(
          () => existing.signsIn.token,
          (formSafe) =>
            fc.oneof(
              text("granite-willow-passphrase", 128, false).poison(formSafe),
              fc.constantFrom("", "granite-willow-passphrase", "copper-kettle-passphrase"),
            ),
        ),
      ),
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
        embedClient(),
      ]),
  },
  {
    // The client's own workbook and record are valid here: the poison is what makes the request fail.
    name: "POST /api/sigma/provision-and-embed (a client with workbooks)",
    method: "POST",
    url: () => "/api/sigma/provision-and-embed",
    who: "owner",
    requests: () =>
      fuzzed([
        {
          name: "workbookId",
          get valid() {
            return existing.wb.workbook_name;
          },
          required: true,
          poison: (formSafe) =>
            fc.oneof(
              text("", 200).poison(formSafe),
              fc.constantFrom("Unknown-abcdefghijklmnopqrstuv", "   "),
              fc.constant(null).map(() => existing.otherWb.workbook_name),
            ),
        },
        embedClient(),
      ]),
  },
  {
    // A delegation counts once accepted: until then the client's workbooks are not the delegate's to view.
    name: "POST /api/sigma/provision-and-embed (a delegate whose invitation is not accepted)",
    method: "POST",
    url: () => "/api/sigma/provision-and-embed",
    who: "employee",
    requests: () =>
      fuzzed([], { encodings: ["json"] }).map((r) => ({
        ...r,
        body: { workbookId: existing.wb.workbook_name, clientId: existing.client.c_id },
      })),
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
  ...circleEndpoints(),
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

/** `clientId` of provision-and-embed: a client the caller may not view (another's, or none) is a 404. */
function embedClient(): Field {
  return {
    name: "clientId",
    get valid() {
      return existing.client.c_id;
    },
    poison: () =>
      fc.oneof(
        badBodyId,
        fc.integer({ min: 100_000, max: 2_147_483_647 }),
        fc.constant(null).map(() => existing.other.c_id),
        fc.constant(null).map(() => existing.free.c_id),
      ),
  };
}

/**
 * A client's circle (delegates, households, the firm's delegation setting). Ids that exist are poisons where
 * they are not the caller's: another client's delegation, or a client paired with a delegation of another.
 */
function circleEndpoints(): Endpoint[] {
  const otherDelegation = () => String(existing.theirs.id);
  const delegateId = fc.oneof(oddId, fc.constant(null).map(otherDelegation));
  return [
    {
      name: "POST /api/me/delegates",
      method: "POST",
      url: () => "/api/me/delegates",
      who: "owner",
      requests: () => fuzzed(delegateInvite()),
    },
    {
      name: "POST /api/me/delegates (without a client record)",
      method: "POST",
      url: () => "/api/me/delegates",
      who: "client",
      requests: () =>
        fuzzed([], { encodings: ["json"] }).map((r) => ({
          ...r,
          body: { email: "new.fuzz.delegate@example.com", name: "New Delegate" },
        })),
    },
    {
      name: "PATCH /api/me/delegates/{id} (bad body)",
      method: "PATCH",
      url: () => `/api/me/delegates/${existing.delegate.id}`,
      who: "owner",
      requests: () => fuzzed([sharedWorkbooks(true), expiresAt]),
    },
    {
      name: "PATCH /api/me/delegates/{odd or another client's id}",
      method: "PATCH",
      url: (id) => `/api/me/delegates/${id}`,
      who: "owner",
      requests: () =>
        fuzzed([], { id: delegateId, encodings: ["json", "none"] }).map((r) => ({
          ...r,
          body: { workbookIds: null, expiresAt: null },
        })),
    },
    {
      name: "DELETE /api/me/delegates/{odd or another client's id}",
      method: "DELETE",
      url: (id) => `/api/me/delegates/${id}`,
      who: "owner",
      requests: () => fuzzed([], { id: delegateId }),
    },
    {
      name: "POST /api/admin/clients/{c_id}/delegates (bad body)",
      method: "POST",
      url: () => `/api/admin/clients/${existing.client.c_id}/delegates`,
      who: "admin",
      requests: () => fuzzed(delegateInvite()),
    },
    {
      name: "POST /api/admin/clients/{odd c_id}/delegates",
      method: "POST",
      url: (id) => `/api/admin/clients/${id}/delegates`,
      who: "admin",
      requests: () =>
        fuzzed([], { id: oddId, encodings: ["json", "none"] }).map((r) => ({
          ...r,
          body: { email: "new.fuzz.delegate@example.com", name: "New Delegate" },
        })),
    },
    {
      name: "DELETE /api/admin/clients/{c_id}/delegates/{id} (odd ids, or a delegation of another client)",
      method: "DELETE",
      url: (id) => `/api/admin/clients/${id}`,
      who: "admin",
      requests: () =>
        fuzzed([], {
          id: fc.oneof(
            oddId.map((id) => `${existing.client.c_id}/delegates/${id}`),
            oddId.map((id) => `${id}/delegates/${existing.delegate.id}`),
            fc.constant(null).map(() => `${existing.client.c_id}/delegates/${existing.theirs.id}`),
            fc.constant(null).map(() => `${existing.other.c_id}/delegates/${existing.delegate.id}`),
            fc.constant(null).map(() => `${existing.free.c_id}/delegates/${existing.signsIn.id}`),
          ),
        }),
    },
    {
      name: "POST /api/admin/households",
      method: "POST",
      url: () => "/api/admin/households",
      who: "admin",
      requests: () =>
        fuzzed(
          householdFields(
            () => existing.free.c_id,
            () => existing.client.c_id,
          ),
        ),
    },
    {
      name: "PUT /api/admin/households/{id} (bad body)",
      method: "PUT",
      url: () => `/api/admin/households/${existing.household.id}`,
      who: "admin",
      requests: () =>
        fuzzed(
          householdFields(
            () => existing.client.c_id,
            () => existing.other.c_id,
          ),
        ),
    },
    {
      name: "PUT /api/admin/households/{odd id}",
      method: "PUT",
      url: (id) => `/api/admin/households/${id}`,
      who: "admin",
      requests: () =>
        fuzzed([], { id: oddId, encodings: ["json", "none"] }).map((r) => ({
          ...r,
          body: { name: "Fuzz Household", clientIds: [existing.free.c_id], combinedView: false },
        })),
    },
    {
      name: "DELETE /api/admin/households/{odd id}",
      method: "DELETE",
      url: (id) => `/api/admin/households/${id}`,
      who: "admin",
      requests: () => fuzzed([], { id: oddId }),
    },
    {
      name: "PUT /api/admin/settings/delegation",
      method: "PUT",
      url: () => "/api/admin/settings/delegation",
      who: "admin",
      requests: () =>
        fuzzed([
          {
            name: "clientsMayInvite",
            valid: false,
            required: true,
            poison: () =>
              fc.constantFrom<unknown>("true", "false", "on", 1, 0, null, [], {}, [false], MISSING),
          },
        ]),
    },
  ];
}

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

// ---- Better Auth's own write endpoints ----

/** A Better Auth endpoint as its router holds it: the path, methods and the zod schema of its body. */
interface AuthEndpoint {
  path?: string;
  options?: { method?: string | string[]; body?: AuthBodySchema };
}
interface AuthBodySchema {
  shape?: Record<string, unknown>;
  unwrap?: () => AuthBodySchema;
}

/** The field names of a body schema (an optional body's too), or undefined for a free-form one. */
function fieldsOf(schema: AuthBodySchema): string[] | undefined {
  if (schema.shape) return Object.keys(schema.shape);
  return schema.unwrap ? fieldsOf(schema.unwrap()) : undefined;
}

/** Every Better Auth endpoint the portal exposes that takes a POST body. */
function authWriteEndpoints(): { path: string; fields: string[] }[] {
  const found = new Map<string, string[]>();
  for (const endpoint of Object.values(t.auth.api) as AuthEndpoint[]) {
    const { path, options } = endpoint;
    const methods = [options?.method ?? []].flat();
    if (!path || !options?.body || !methods.includes("POST")) continue;
    if ((DISABLED_AUTH_PATHS as readonly string[]).includes(path)) continue;
    // A schema of named fields poisons each of them; a free-form one (update-user) the profile's fields.
    found.set(path, fieldsOf(options.body) ?? ["name", "image"]);
  }
  return [...found].map(([path, fields]) => ({ path, fields }));
}

/** Values no field of an account write takes. */
const AUTH_POISONS: unknown[] = [
  null,
  true,
  false,
  0,
  42,
  -1.5,
  [],
  ["Fuzz"],
  {},
  { a: 1 },
  "",
  "   ",
  "a\u0000b",
  "\u0007",
  "Ann\r\nBcc: x",
  "\u001b[2J",
  "\uD800",
  // Over every field's limit (the body limit has the huge-json encoding); not larger: Better Auth logs some values.
  "x".repeat(5_000),
  JSON.parse(`${'{"a":'.repeat(20)}1${"}".repeat(20)}`),
];

/**
 * Bodies an endpoint must refuse although each field is well-formed: a field the contract does not take (the
 * profile may not set a role, an email, two-step verification or a picture; a passkey's owner is the session's),
 * and a passkey's answer in WebAuthn's shape that no authenticator made (for the profile's own credential too).
 */
const wellFormedButRefused = (): Record<string, Record<string, unknown>[]> => {
  const extras = [{ role: "admin" }, { email: "fuzz.other@example.com" }, { twoFactorEnabled: false }];
  const withExtras = (body: Record<string, unknown>) => [
    ...extras.map((extra) => ({ ...body, ...extra })),
    { ...body, image: "https://tracker.example/pixel.png" },
    { ...body, userId: existing.client.email },
    { ...body, "": 1 },
  ];
  const answer = (id: string, parts: Record<string, string>) => ({
    id,
    rawId: id,
    type: "public-key",
    response: parts,
  });
  const made = answer("AAAA", {
    clientDataJSON: "AAAA",
    attestationObject: "AAAA",
    transports: ["usb"],
  } as never);
  return {
    "/update-user": withExtras({ name: "Fuzz Renamed" }),
    "/passkey/update-passkey": withExtras({ id: profile.passkeyId, name: "Fuzz Renamed" }),
    "/passkey/delete-passkey": withExtras({ id: profile.passkeyId }),
    "/passkey/verify-registration": [
      { response: made },
      { response: made, name: "Fuzz Key 2" },
      ...withExtras({ response: made }),
    ],
    "/passkey/verify-authentication": ["AAAA", "ZnV6ei1jcmVkZW50aWFs"].map((id) => ({
      response: answer(id, {
        clientDataJSON: "AAAA",
        authenticatorData: "AAAA",
        signature: "AAAA",
        userHandle: "AAAA",
      }),
    })),
  };
};

/** Where a passkey ceremony's challenge comes from: its verification is fuzzed with and without one. */
const CHALLENGES: Record<string, string> = {
  "/passkey/verify-registration": "/api/auth/passkey/generate-register-options",
  "/passkey/verify-authentication": "/api/auth/passkey/generate-authenticate-options",
};

/** The malformed requests of one Better Auth endpoint: every poison in every field, and in every encoding. */
function authRequests(path: string, fields: string[]): Fuzzed[] {
  const json = (body: unknown): Fuzzed => ({ body, encoding: "json", spelling: false });
  const every = (value: unknown) => Object.fromEntries(fields.map((field) => [field, value]));
  const bodies: Fuzzed[] = [null, true, 7, "text", [], [every("Fuzz")]].map(json);
  for (const value of AUTH_POISONS) {
    bodies.push(json(every(value)));
    if (fields.length > 1) for (const field of fields) bodies.push(json({ [field]: value }));
  }
  for (const body of wellFormedButRefused()[path] ?? []) bodies.push(json(body));
  for (const encoding of [
    "form",
    "multipart",
    "text",
    "broken-json",
    "deep-json",
    "huge-json",
    "none",
  ] as const) {
    bodies.push({ body: every("   "), encoding, spelling: encoding === "form" });
  }
  return bodies;
}

/**
 * Where an answer leads: a form-posted OAuth callback is handed to its GET twin (a redirect with the fields in
 * the query), which refuses by redirecting to Better Auth's error page.
 */
async function settled(res: Awaited<ReturnType<typeof t.app.inject>>) {
  for (let hops = 0; hops < 2 && res.statusCode === 302; hops += 1) {
    const location = new URL(String(res.headers.location), ORIGIN);
    if (location.origin !== ORIGIN || location.pathname === "/api/auth/error") break;
    res = await t.app.inject({
      method: "GET",
      url: `${location.pathname}${location.search}`,
      headers: as.profile,
    });
  }
  return res;
}

/** A refusal: the portal's error body with a 4xx, or a redirect to Better Auth's error page for a known reason. */
function refused(res: Awaited<ReturnType<typeof t.app.inject>>): boolean {
  if (res.statusCode === 302) {
    const location = new URL(String(res.headers.location), ORIGIN);
    const error = location.searchParams.get("error");
    return location.pathname === "/api/auth/error" && !!error && error !== "internal_server_error";
  }
  let answer: Record<string, unknown> = {};
  try {
    answer = (JSON.parse(res.body) as Record<string, unknown> | null) ?? {};
  } catch {
    return false;
  }
  return (
    res.statusCode >= 400 &&
    res.statusCode < 500 &&
    typeof answer.error === "string" &&
    /\w/.test(answer.error) &&
    isApiErrorCode(answer.code) &&
    typeof answer.requestId === "string"
  );
}

describe("Better Auth's write endpoints (listed from its router)", () => {
  it("answers every malformed body with the portal's 4xx error body and changes nothing", async () => {
    const listed = authWriteEndpoints();
    // The listing itself is checked: the contract endpoints of issue 24 are among those fuzzed.
    expect(listed.map((e) => e.path)).toEqual(
      expect.arrayContaining([
        "/update-user",
        "/passkey/update-passkey",
        "/passkey/verify-registration",
        "/passkey/delete-passkey",
        "/passkey/verify-authentication",
        "/sign-up/email",
        "/change-password",
      ]),
    );
    const before = await rowCounts();
    const problems: string[] = [];
    let n = 0;
    for (const { path, fields } of listed) {
      // A path parameter (`/callback/:id`): a provider the portal has not configured.
      const url = `/api/auth${path.replace(/:[^/]+/g, "fuzz")}`;
      const challenge = CHALLENGES[path];
      const requests = authRequests(path, fields);
      for (const [request, withChallenge] of [
        ...requests.map((r) => [r, false] as const),
        ...(challenge ? requests.map((r) => [r, true] as const) : []),
      ]) {
        n += 1;
        const { payload, contentType } = encode(request);
        let cookie = as.profile!.cookie!;
        if (withChallenge) {
          const offered = await t.app.inject({ method: "GET", url: challenge!, headers: as.profile });
          expect(offered.statusCode, offered.body).toBe(200);
          cookie = `${cookie}; ${cookieHeader(offered)}`;
        }
        const res = await settled(
          await t.app.inject({
            method: "POST",
            url: spelt(url, request.spelling),
            headers: { ...as.profile, cookie, ...(contentType ? { "content-type": contentType } : {}) },
            remoteAddress: `11.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`,
            ...(payload === undefined ? {} : { payload }),
          }),
        );
        if (!refused(res)) {
          const sent = (payload ?? "").slice(0, 120);
          const location = res.headers.location ? ` → ${String(res.headers.location)}` : "";
          problems.push(
            `${path} ${request.encoding} ${sent} → ${res.statusCode}${location} ${res.body.slice(0, 200)}`,
          );
        }
      }
    }
    expect(problems).toEqual([]);
    expect(await rowCounts()).toEqual(before);
  }, 120_000);
});
