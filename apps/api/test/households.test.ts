import { sql, type SQL } from "drizzle-orm";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadOrCreateLocalSigmaCredentials } from "@portal/sigma";
import { jwtVerify } from "jose";
import { fromPostgres, type DatabaseHandle } from "../src/db/client.ts";
import { createTestApp, headersFor, ORIGIN } from "./support/app.ts";
import { createScratchDatabase, createTestDatabase } from "./support/database.ts";

let database: DatabaseHandle;
let t: Awaited<ReturnType<typeof createTestApp>>;
let admin: Record<string, string>;
let n = 0;

// Viewing decisions kept a minute: only the clearing on every change can make the next embed see it.
const ENV = {
  AUTH_IP_LIMIT_PER_MINUTE: "10000",
  DELEGATION_REMINDER_INTERVAL_SECONDS: "0",
  ACCESS_CACHE_SECONDS: "60",
};

beforeAll(async () => {
  database = await createTestDatabase();
  t = await createTestApp(database, ENV);
  admin = await headersFor(t, "admin");
});
afterAll(async () => {
  await t.app.close();
  await database.close();
});

type App = Awaited<ReturnType<typeof createTestApp>>;
interface Client {
  c_id: number;
  email: string;
  client_id: string;
  first_name: string;
  last_name: string;
}

async function addClient(
  app: App = t,
  headers = admin,
  firstName = "Olivia",
  workbookIds: number[] = [],
): Promise<Client> {
  n += 1;
  const res = await app.app.inject({
    method: "POST",
    url: "/api/admin/addclient",
    headers,
    payload: {
      clientId: `CL-H${n}`,
      firstName,
      lastName: `Bennett${n}`,
      email: `household.client${n}@example.com`,
      password: "tidal-granite-passphrase",
      role: "client",
      privilege: "View",
      workbookIds,
    },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data.client as Client;
}

const member = (c: Client) => ({
  c_id: c.c_id,
  client_id: c.client_id,
  name: `${c.first_name} ${c.last_name}`,
});

const send = (
  method: "GET" | "POST" | "PUT" | "DELETE",
  url: string,
  payload?: unknown,
  app: App = t,
  headers = admin,
) =>
  app.app.inject({
    method,
    url,
    headers: payload === undefined ? headers : { ...headers, "content-type": "application/json" },
    ...(payload === undefined
      ? {}
      : { payload: typeof payload === "string" ? payload : JSON.stringify(payload) }),
  });

const query = async <T>(statement: SQL, db = database) =>
  ((await db.db.execute(statement)) as unknown as { rows: T[] }).rows;

/** Everything a household request could write: households, memberships and their audit rows. */
const written = async () =>
  (
    await query<{ households: number; members: number; audits: number }>(sql`
      select (select count(*)::int from households) as households,
             (select count(*)::int from household_members) as members,
             (select count(*)::int from audit_log where action like 'household.%') as audits`)
  )[0]!;

const auditOf = (action: string, id: number) =>
  query<{ actor_email: string; before: unknown; after: unknown; outcome: string }>(sql`
    select actor_email, before, after, outcome from audit_log
     where action = ${action} and target_type = 'household' and target_id = ${String(id)} order by id`);

describe("households in the back office", () => {
  it("creates, lists, changes and deletes a household, with an audit row each", async () => {
    const [a, b, c] = [await addClient(), await addClient(t, admin, "Adam"), await addClient()];
    const created = await send("POST", "/api/admin/households", {
      name: "  Bennett family  ",
      clientIds: [b.c_id, a.c_id, b.c_id],
      combinedView: true,
    });
    expect(created.statusCode, created.body).toBe(201);
    const household = created.json().household;
    expect(created.json()).toEqual({
      message: "Household saved.",
      household: {
        id: expect.any(Number),
        name: "Bennett family",
        combinedView: true,
        members: [member(b), member(a)],
      },
    });

    const listed = await send("GET", "/api/admin/households");
    expect(listed.statusCode).toBe(200);
    expect(listed.json()).toContainEqual(household);
    expect((await send("GET", `/api/admin/clients/${a.c_id}/household`)).json()).toEqual(household);
    const outside = await send("GET", `/api/admin/clients/${c.c_id}/household`);
    expect(outside.statusCode).toBe(200);
    expect(outside.body).toBe("null");

    const [createdAudit] = await auditOf("household.created", household.id);
    expect(createdAudit).toEqual({
      actor_email: expect.stringContaining("@example.com"),
      outcome: "success",
      before: null,
      after: { name: "Bennett family", combinedView: true, members: [a.c_id, b.c_id].sort((x, y) => x - y) },
    });

    // PUT replaces the name, the members and the combined view together.
    const changed = await send("PUT", `/api/admin/households/${household.id}`, {
      name: "Bennett & Reyes",
      clientIds: [c.c_id, a.c_id],
      combinedView: false,
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toEqual({
      message: "Household saved.",
      household: {
        id: household.id,
        name: "Bennett & Reyes",
        combinedView: false,
        members: [member(a), member(c)],
      },
    });
    expect((await send("GET", `/api/admin/clients/${b.c_id}/household`)).body).toBe("null");
    expect((await send("GET", `/api/admin/clients/${c.c_id}/household`)).json().id).toBe(household.id);
    expect(await auditOf("household.changed", household.id)).toEqual([
      expect.objectContaining({
        before: { name: "Bennett family", combinedView: true, members: [a.c_id, b.c_id] },
        after: { name: "Bennett & Reyes", combinedView: false, members: [a.c_id, c.c_id] },
      }),
    ]);

    const deleted = await send("DELETE", `/api/admin/households/${household.id}`);
    expect(deleted.statusCode).toBe(200);
    expect(deleted.json()).toEqual({ message: "Household deleted." });
    expect((await send("GET", "/api/admin/households")).json()).not.toContainEqual(
      expect.objectContaining({ id: household.id }),
    );
    // The clients stay, in no household.
    for (const client of [a, b, c]) {
      const res = await send("GET", `/api/admin/clients/${client.c_id}/household`);
      expect(res.statusCode).toBe(200);
      expect(res.body).toBe("null");
    }
    expect(await auditOf("household.deleted", household.id)).toEqual([
      expect.objectContaining({
        before: { name: "Bennett & Reyes", combinedView: false, members: [a.c_id, c.c_id] },
        after: null,
      }),
    ]);
  });

  it("allows two households of the same name (two families called Bennett)", async () => {
    const [a, b] = [await addClient(), await addClient()];
    const first = await send("POST", "/api/admin/households", {
      name: "Bennett",
      clientIds: [a.c_id],
      combinedView: false,
    });
    const second = await send("POST", "/api/admin/households", {
      name: "Bennett",
      clientIds: [b.c_id],
      combinedView: false,
    });
    expect([first.statusCode, second.statusCode]).toEqual([201, 201]);
    expect(first.json().household.id).not.toBe(second.json().household.id);
  });

  it("answers 404 for an unknown household or client, and changes nothing", async () => {
    const a = await addClient();
    const before = await written();
    const body = { name: "Nobody's", clientIds: [a.c_id], combinedView: false };
    for (const res of [
      await send("PUT", "/api/admin/households/2147483647", body),
      await send("DELETE", "/api/admin/households/2147483647"),
    ]) {
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ error: "Household not found.", code: "NOT_FOUND" });
    }
    const unknownClient = await send("GET", "/api/admin/clients/2147483647/household");
    expect(unknownClient.statusCode).toBe(404);
    expect(unknownClient.json()).toMatchObject({ error: "Client not found.", code: "NOT_FOUND" });
    expect(await written()).toEqual(before);
  });

  it("deleting a client takes them out of their household", async () => {
    const [a, b] = [await addClient(), await addClient()];
    const household = (
      await send("POST", "/api/admin/households", {
        name: "Leaving",
        clientIds: [a.c_id, b.c_id],
        combinedView: true,
      })
    ).json().household;
    expect((await send("DELETE", `/api/admin/deleteclient/${a.c_id}`)).statusCode).toBe(200);
    const listed = (await send("GET", "/api/admin/households")).json() as {
      id: number;
      members: unknown[];
    }[];
    expect(listed.find((h) => h.id === household.id)!.members).toEqual([member(b)]);
  });
});

describe("the next embed", () => {
  it("carries the household's clients with the combined view, and no longer once a client leaves or it is deleted", async () => {
    const workbook = (
      await send("POST", "/api/admin/addworkbook", {
        workbook_name: "Household-View-abcdefghijklmnopqrstuvw",
        team_name: "Household Team",
      })
    ).json().data as { workbook_name: string; id: number };
    const [a, b] = [
      await addClient(t, admin, "Olivia", [workbook.id]),
      await addClient(t, admin, "Marcus", [workbook.id]),
    ];
    const secret = new TextEncoder().encode(
      (await loadOrCreateLocalSigmaCredentials(t.config.dataDir)).embedSecret,
    );
    const cookies = new Map<Client, string>();
    for (const client of [a, b])
      cookies.set(client, await t.sessionCookie(client.email, "tidal-granite-passphrase"));
    const attributesOf = async (client: Client) => {
      const res = await t.app.inject({
        method: "POST",
        url: "/api/sigma/provision-and-embed",
        headers: { cookie: cookies.get(client)!, origin: ORIGIN, "content-type": "application/json" },
        payload: { workbookId: workbook.workbook_name },
      });
      expect(res.statusCode, res.body).toBe(200);
      const { payload } = await jwtVerify(new URL(res.json().embedUrl).searchParams.get(":jwt")!, secret);
      return payload.user_attributes;
    };
    const both = [a.client_id, b.client_id].sort().join(",");

    expect(await attributesOf(a)).toEqual({ client_id: a.client_id, client_ids: "" });
    const household = (
      await send("POST", "/api/admin/households", {
        name: "Viewing",
        clientIds: [a.c_id, b.c_id],
        combinedView: true,
      })
    ).json().household as { id: number };
    expect(await attributesOf(a)).toEqual({ client_id: a.client_id, client_ids: both });
    expect(await attributesOf(b)).toEqual({ client_id: b.client_id, client_ids: both });

    // Olivia leaves: her next embed is her own again, Marcus's names only himself.
    const left = await send("PUT", `/api/admin/households/${household.id}`, {
      name: "Viewing",
      clientIds: [b.c_id],
      combinedView: true,
    });
    expect(left.statusCode).toBe(200);
    expect(await attributesOf(a)).toEqual({ client_id: a.client_id, client_ids: "" });
    expect(await attributesOf(b)).toEqual({ client_id: b.client_id, client_ids: b.client_id });

    expect((await send("DELETE", `/api/admin/households/${household.id}`)).statusCode).toBe(200);
    expect(await attributesOf(b)).toEqual({ client_id: b.client_id, client_ids: "" });
  });
});

describe("bad input", () => {
  let existing: { id: number; name: string };
  let clientIds: number[];
  beforeAll(async () => {
    const [a, b] = [await addClient(), await addClient()];
    clientIds = [a.c_id];
    existing = (
      await send("POST", "/api/admin/households", {
        name: "Untouched",
        clientIds: [b.c_id],
        combinedView: false,
      })
    ).json().household;
  });

  const cases: [string, () => unknown, RegExp][] = [
    [
      "an unknown field",
      () => ({ name: "H", clientIds, combinedView: false, owner: "x" }),
      /^Unknown field: owner\.$/,
    ],
    ["a blank name", () => ({ name: "   ", clientIds, combinedView: false }), /All fields are required/],
    ["no clients", () => ({ name: "H", clientIds: [], combinedView: false }), /at least one client/],
    ["a NUL character", () => ({ name: "Ben\u0000nett", clientIds, combinedView: false }), /NUL/],
    [
      "ids written as strings",
      () => ({ name: "H", clientIds: clientIds.map(String), combinedView: false }),
      /clientIds/,
    ],
    ["a fractional id", () => ({ name: "H", clientIds: [1.5], combinedView: false }), /whole numbers/],
    [
      "51 clients",
      () => ({ name: "H", clientIds: Array.from({ length: 51 }, (_, i) => i + 1), combinedView: false }),
      /at most 50 clients/,
    ],
    [
      "combinedView as text",
      () => ({ name: "H", clientIds, combinedView: "yes" }),
      /combinedView must be true or false/,
    ],
    ["no combinedView", () => ({ name: "H", clientIds }), /combinedView must be true or false/],
    [
      "a name of 101 characters",
      () => ({ name: "x".repeat(101), clientIds, combinedView: false }),
      /at most 100/,
    ],
    ["not JSON", () => "{not json", /./],
    ["an array body", () => [], /JSON object/],
  ];

  it.each(cases)("refuses %s with 400 and writes nothing (POST and PUT)", async (_name, body, message) => {
    const before = await written();
    for (const [method, url] of [
      ["POST", "/api/admin/households"],
      ["PUT", `/api/admin/households/${existing.id}`],
    ] as const) {
      const res = await send(method, url, body());
      expect(res.statusCode, `${method} ${res.body}`).toBe(400);
      expect(res.json()).toMatchObject({
        error: expect.stringMatching(message),
        requestId: expect.any(String),
      });
    }
    expect(await written()).toEqual(before);
    expect((await send("GET", "/api/admin/households")).json()).toContainEqual(
      expect.objectContaining(existing),
    );
  });

  it("names the client numbers that do not exist, and writes nothing", async () => {
    const before = await written();
    for (const [method, url] of [
      ["POST", "/api/admin/households"],
      ["PUT", `/api/admin/households/${existing.id}`],
    ] as const) {
      const res = await send(method, url, {
        name: "Ghosts",
        clientIds: [2147483646, clientIds[0], 2147483645],
        combinedView: true,
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({
        error: "Unknown client ids: 2147483645, 2147483646. Nothing was saved.",
        code: "UNKNOWN_CLIENT",
      });
    }
    expect(await written()).toEqual(before);
  });

  it.each(["0x10", "1.0", "007", "0", "2147483648", "abc"])("refuses the path id %s with 400", async (id) => {
    const before = await written();
    for (const res of [
      await send("PUT", `/api/admin/households/${id}`, { name: "H", clientIds, combinedView: false }),
      await send("DELETE", `/api/admin/households/${id}`),
      await send("GET", `/api/admin/clients/${id}/household`),
    ]) {
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toMatchObject({ code: "INVALID_INPUT" });
    }
    expect(await written()).toEqual(before);
  });
});

describe("one household per client", () => {
  it("refuses a client who is in another household with 409 naming both, and writes nothing", async () => {
    const [a, b, c] = [await addClient(), await addClient(), await addClient()];
    const reyes = (
      await send("POST", "/api/admin/households", { name: "Reyes", clientIds: [a.c_id], combinedView: false })
    ).json().household;
    const other = (
      await send("POST", "/api/admin/households", { name: "Other", clientIds: [c.c_id], combinedView: false })
    ).json().household;
    const before = await written();

    const created = await send("POST", "/api/admin/households", {
      name: "Bennett",
      clientIds: [b.c_id, a.c_id],
      combinedView: false,
    });
    expect(created.statusCode).toBe(409);
    expect(created.json()).toMatchObject({
      error: `${a.first_name} ${a.last_name} (${a.client_id}) is already in the household “Reyes”. A client can be in one household only: remove them there first.`,
      code: "CONFLICT",
    });

    const moved = await send("PUT", `/api/admin/households/${other.id}`, {
      name: "Other, renamed",
      clientIds: [a.c_id, b.c_id, c.c_id],
      combinedView: true,
    });
    expect(moved.statusCode).toBe(409);
    expect(moved.json().error).toContain(`(${a.client_id}) is already in the household “Reyes”`);
    expect(await written()).toEqual(before);
    expect((await send("GET", `/api/admin/clients/${c.c_id}/household`)).json()).toMatchObject({
      name: "Other",
      combinedView: false,
      members: [member(c)],
    });

    // Saving a household with its own members again is no conflict.
    const same = await send("PUT", `/api/admin/households/${reyes.id}`, {
      name: "Reyes",
      clientIds: [a.c_id],
      combinedView: true,
    });
    expect(same.statusCode).toBe(200);
  });

  it("two admins adding the same client to two households at once: one succeeds, one gets a clear 409", async () => {
    const second = await headersFor(t, "admin");
    for (let round = 0; round < 5; round += 1) {
      const shared = await addClient();
      const [one, two] = await Promise.all([
        send("POST", "/api/admin/households", {
          name: `First ${round}`,
          clientIds: [shared.c_id],
          combinedView: false,
        }),
        send(
          "POST",
          "/api/admin/households",
          { name: `Second ${round}`, clientIds: [shared.c_id], combinedView: true },
          t,
          second,
        ),
      ]);
      expect([one.statusCode, two.statusCode].sort()).toEqual([201, 409]);
      const [won, lost] = one.statusCode === 201 ? [one, two] : [two, one];
      expect(lost.json()).toMatchObject({
        error: expect.stringContaining(
          `(${shared.client_id}) is already in the household “${won.json().household.name}”`,
        ),
        code: "CONFLICT",
      });
      const rows = await query<{ name: string }>(sql`
        select h.name from household_members m join households h on h.id = m.household_id where m.c_id = ${shared.c_id}`);
      expect(rows).toEqual([{ name: won.json().household.name }]);
      const losing = lost === one ? `First ${round}` : `Second ${round}`;
      expect(await query(sql`select id from households where name = ${losing}`)).toEqual([]);
    }
  });
});

/**
 * The race the checks cannot see: another admin's household holds the client in a transaction not yet
 * committed when this request checks. Needs two connections, so it runs on the PostgreSQL server (the one of
 * TEST_DATABASE_URL, else the local one) in both runs, as the audit chain's cross-process test does.
 */
describe("a membership committed between the check and the insert", () => {
  const serverUrl = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
  let scratch: Awaited<ReturnType<typeof createScratchDatabase>>;
  let handle: DatabaseHandle;
  let app: App;
  let headers: Record<string, string>;
  beforeAll(async () => {
    scratch = await createScratchDatabase(serverUrl, "households_race");
    handle = fromPostgres(scratch.url);
    await handle.migrate();
    app = await createTestApp(handle, ENV);
    headers = await headersFor(app, "admin");
  });
  afterAll(async () => {
    await app.app.close();
    await handle.close();
    await scratch.drop();
  });

  it("answers 409 naming the client and the other household, from the unique index", async () => {
    const client = await addClient(app, headers);
    const other = new pg.Client({ connectionString: scratch.url });
    await other.connect();
    try {
      await other.query("begin");
      const { rows } = await other.query<{ id: number }>(
        "insert into households (name, combined_view) values ('Held elsewhere', false) returning id",
      );
      await other.query("insert into household_members (household_id, c_id) values ($1, $2)", [
        rows[0]!.id,
        client.c_id,
      ]);

      const pending = send(
        "POST",
        "/api/admin/households",
        {
          name: "Racing",
          clientIds: [client.c_id],
          combinedView: false,
        },
        app,
        headers,
      );
      // The request passed its check (the other membership is not committed) and now waits on the index.
      await expect
        .poll(
          async () =>
            (
              await query<{ n: number }>(
                sql`select count(*)::int as n from pg_stat_activity
                     where datname = current_database() and wait_event_type = 'Lock'`,
                handle,
              )
            )[0]!.n,
          { timeout: 10_000 },
        )
        .toBe(1);
      await other.query("commit");
      const res = await pending;
      expect(res.statusCode).toBe(409);
      expect(res.json()).toMatchObject({
        error: `${client.first_name} ${client.last_name} (${client.client_id}) is already in the household “Held elsewhere”. A client can be in one household only: remove them there first.`,
        code: "CONFLICT",
      });
      expect(await query(sql`select id from households where name = 'Racing'`, handle)).toEqual([]);
      expect(
        await query(sql`select count(*)::int as n from audit_log where action = 'household.created'`, handle),
      ).toEqual([{ n: 0 }]);
    } finally {
      await other.end();
    }
  });
});
