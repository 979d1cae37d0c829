import { parse } from "csv-parse/sync";
import { sql, TransactionRollbackError } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { auditBatches } from "../src/audit/queries.ts";
import { recordAudit, type AuditEvent } from "../src/audit/audit.ts";
import { createAuditVerification } from "../src/audit/verification.ts";
import type { DatabaseHandle } from "../src/db/client.ts";
import { createTestApp, headersFor, ORIGIN } from "./support/app.ts";
import { sealAll } from "./support/audit-seals.ts";
import { createTestDatabase } from "./support/database.ts";

let database: DatabaseHandle;
let t: Awaited<ReturnType<typeof createTestApp>>;
let admin: Record<string, string>;
let client: { c_id: number; email: string; userId: string };
let clientHeaders: Record<string, string>;

type Entry = {
  id: number;
  occurred_at: string;
  actor_user_id: string | null;
  actor_email: string | null;
  action: string;
  outcome: string;
  target_type: string | null;
  target_id: string | null;
  before: unknown;
  after: unknown;
};

const query = async <T>(statement: ReturnType<typeof sql>) =>
  ((await database.db.execute(statement)) as unknown as { rows: T[] }).rows;

/** Audit rows written as if at `when` (the portal stamps rows with its own clock, which the chain covers). */
async function recordAt(when: string, events: AuditEvent[]) {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(new Date(when));
  try {
    for (const event of events) await recordAudit(database.db, event);
  } finally {
    vi.useRealTimers();
  }
}

const get = (url: string, headers = admin) => t.app.inject({ method: "GET", url, headers });

beforeAll(async () => {
  database = await createTestDatabase();
  t = await createTestApp(database, { AUTH_IP_LIMIT_PER_MINUTE: "10000" });
  admin = await headersFor(t, "admin");
  clientHeaders = await headersFor(t, "client");
  // A client through the API: client.created names them as its target, their sign-in as its actor.
  const added = await t.app.inject({
    method: "POST",
    url: "/api/admin/addclient",
    headers: admin,
    payload: {
      clientId: "CL-AUDIT1",
      firstName: "Olivia",
      lastName: "Audit",
      email: "olivia.audit@example.com",
      password: "tidal-granite-passphrase",
      role: "client",
      privilege: "View",
      workbookIds: [],
    },
  });
  expect(added.statusCode).toBe(201);
  const [user] = await query<{ id: string }>(
    sql`select id from users where email = 'olivia.audit@example.com'`,
  );
  client = { c_id: added.json().data.client.c_id, email: "olivia.audit@example.com", userId: user!.id };
  expect((await t.signIn(client.email, "tidal-granite-passphrase")).statusCode).toBe(200);
  expect((await t.signIn(client.email, "wrong-password-for-sure")).statusCode).toBe(401);

  // Rows on known days, for the date filters: 3 on 10 Jan, 2 on 11 Jan, 1 on 12 Jan 2026 (UTC).
  const workbookEvent = (i: number): AuditEvent => ({
    action: "workbook.updated",
    outcome: "success",
    actorEmail: "someone.else@example.com",
    targetType: "workbook",
    targetId: String(i),
    before: { team_name: `Team ${i}` },
    after: { team_name: `Team ${i} renamed` },
  });
  await recordAt("2026-01-10T08:00:00Z", [workbookEvent(1), workbookEvent(2), workbookEvent(3)]);
  await recordAt("2026-01-11T23:59:59.999Z", [workbookEvent(4), workbookEvent(5)]);
  await recordAt("2026-01-12T00:00:00Z", [workbookEvent(6)]);
});
afterAll(async () => {
  await t.app.close();
  await database.close();
});

describe("GET /api/admin/audit", () => {
  it("answers newest first, 50 per page, with the total and a Link to older rows; pages by keyset both ways", async () => {
    const [{ n }] = (await query<{ n: number }>(sql`select count(*)::int as n from audit_log`)) as [
      { n: number },
    ];
    // Enough rows for three pages of 50.
    if (n < 120) {
      await recordAt(
        "2026-02-01T00:00:00Z",
        Array.from({ length: 120 - n }, (_, i) => ({
          action: "embed.issued" as const,
          outcome: "success" as const,
          actorEmail: "viewer@example.com",
          details: { i },
        })),
      );
    }
    const [{ total }] = (await query<{ total: number }>(
      sql`select count(*)::int as total from audit_log`,
    )) as [{ total: number }];
    const first = await get("/api/admin/audit");
    expect(first.statusCode).toBe(200);
    expect(first.headers["x-total-count"]).toBe(String(total));
    expect(first.headers["x-total-count-capped"]).toBeUndefined();
    const page1 = first.json() as Entry[];
    expect(page1).toHaveLength(50);
    const newest = await query<{ id: number }>(
      sql`select id from audit_log order by occurred_at desc, id desc limit 50`,
    );
    expect(page1.map((e) => e.id)).toEqual(newest.map((r) => Number(r.id)));
    expect(first.headers.link).toBe(`</api/admin/audit?before=${page1[49]!.id}>; rel="next"`);

    // Walk to the end: every row once, in order.
    const seen = [...page1];
    let next = first.headers.link as string | undefined;
    let last: Entry[] = page1;
    let lastLink = "";
    while (next && /rel="next"/.test(next)) {
      const url = /<([^>]+)>; rel="next"/.exec(next)![1]!;
      const res = await get(url);
      last = res.json() as Entry[];
      seen.push(...last);
      lastLink = next = res.headers.link as string;
    }
    expect(seen.map((e) => e.id)).toEqual(
      (await query<{ id: number }>(sql`select id from audit_log order by occurred_at desc, id desc`)).map(
        (r) => Number(r.id),
      ),
    );
    // The last page links back to the newer rows, and that page is the one before it.
    const prevUrl = /<([^>]+)>; rel="prev"/.exec(lastLink)![1]!;
    expect(prevUrl).toBe(`/api/admin/audit?after=${last[0]!.id}`);
    const back = (await get(prevUrl)).json() as Entry[];
    expect(back.map((e) => e.id)).toEqual(
      seen.slice(seen.length - last.length - 50, seen.length - last.length).map((e) => e.id),
    );
  });

  it("keeps the filters and limit in the Link header", async () => {
    const res = await get("/api/admin/audit?action=workbook.updated&limit=2");
    const rows = res.json() as Entry[];
    expect(rows).toHaveLength(2);
    expect(res.headers["x-total-count"]).toBe("6");
    expect(res.headers.link).toBe(
      `</api/admin/audit?action=workbook.updated&limit=2&before=${rows[1]!.id}>; rel="next"`,
    );
  });

  it("filters by person: rows they did and rows about them, nobody else's", async () => {
    const res = await get(`/api/admin/audit?person=${encodeURIComponent("Olivia.Audit@Example.com")}`);
    expect(res.statusCode).toBe(200);
    const rows = res.json() as Entry[];
    const actions = rows.map((e) => `${e.action}:${e.outcome}`);
    expect(actions).toEqual(
      expect.arrayContaining(["client.created:success", "auth.sign_in:success", "auth.sign_in:failure"]),
    );
    for (const e of rows) {
      expect(
        e.actor_email === client.email ||
          e.actor_user_id === client.userId ||
          (e.target_type === "client" && e.target_id === String(client.c_id)) ||
          (e.target_type === "user" && e.target_id === client.userId),
        JSON.stringify(e),
      ).toBe(true);
    }
    const expected = await query<{ n: number }>(sql`select count(*)::int as n from audit_log
      where actor_email = ${client.email} or actor_user_id = ${client.userId}
         or (target_type = 'client' and target_id = ${String(client.c_id)})
         or (target_type = 'user' and target_id = ${client.userId})`);
    expect(rows).toHaveLength(expected[0]!.n);
    expect(res.headers["x-total-count"]).toBe(String(expected[0]!.n));
    // The row that created the client carries what it wrote, for the expanded row.
    const created = rows.find((e) => e.action === "client.created")!;
    expect(created.before).toBeNull();
    expect(created.after).toMatchObject({ client_id: "CL-AUDIT1", email: client.email });
    // Nobody by that address: nothing.
    const nobody = await get("/api/admin/audit?person=nobody%40example.com");
    expect(nobody.json()).toEqual([]);
    expect(nobody.headers["x-total-count"]).toBe("0");
  });

  it("still finds a client's entries after the client was deleted", async () => {
    const added = await t.app.inject({
      method: "POST",
      url: "/api/admin/addclient",
      headers: admin,
      payload: {
        clientId: "CL-GONE1",
        firstName: "Gone",
        lastName: "Client",
        email: "gone.client@example.com",
        password: "tidal-granite-passphrase",
        role: "client",
        privilege: "View",
        workbookIds: [],
      },
    });
    const cId = added.json().data.client.c_id as number;
    const removed = await t.app.inject({
      method: "DELETE",
      url: `/api/admin/deleteclient/${cId}`,
      headers: admin,
    });
    expect(removed.statusCode).toBe(200);
    const rows = (await get("/api/admin/audit?person=gone.client%40example.com")).json() as Entry[];
    expect(rows.map((e) => [e.action, e.target_id])).toEqual([
      ["client.deleted", String(cId)],
      ["client.created", String(cId)],
    ]);
  });

  it("filters by action, outcome and date range (a date's whole day, in UTC)", async () => {
    const failures = (await get("/api/admin/audit?action=auth.sign_in&outcome=failure")).json() as Entry[];
    expect(failures.length).toBeGreaterThan(0);
    expect(failures.every((e) => e.action === "auth.sign_in" && e.outcome === "failure")).toBe(true);

    const day = (await get("/api/admin/audit?from=2026-01-10&to=2026-01-11")).json() as Entry[];
    expect(day.map((e) => [e.target_id, e.occurred_at])).toEqual([
      ["5", "2026-01-11T23:59:59.999Z"],
      ["4", "2026-01-11T23:59:59.999Z"],
      ["3", "2026-01-10T08:00:00.000Z"],
      ["2", "2026-01-10T08:00:00.000Z"],
      ["1", "2026-01-10T08:00:00.000Z"],
    ]);
    // An ISO time with an offset: from inclusive, to exclusive.
    const instant = (
      await get(
        `/api/admin/audit?from=${encodeURIComponent("2026-01-12T01:00:00+01:00")}&to=${encodeURIComponent("2026-01-12T00:00:00.001Z")}`,
      )
    ).json() as Entry[];
    expect(instant.map((e) => e.target_id)).toEqual(["6"]);
    const combined = await get(
      `/api/admin/audit?action=workbook.updated&outcome=success&from=2026-01-11&person=someone.else%40example.com`,
    );
    expect((combined.json() as Entry[]).map((e) => e.target_id)).toEqual(["6", "5", "4"]);
  });

  it("counts at most 10,000 matching rows for a page and says so", async () => {
    // Counting is capped per branch; a person filter with several ways of naming them still counts each row once.
    const res = await get(`/api/admin/audit?person=${encodeURIComponent(client.email)}&limit=1`);
    expect(Number(res.headers["x-total-count"])).toBeGreaterThan(1);
    expect(res.headers["x-total-count-capped"]).toBeUndefined();
  });
});

describe("GET /api/admin/audit.csv", () => {
  it("streams every matching row, not just a page, as an attachment with the total up front", async () => {
    // More rows than one read batch (1,000), so the export must go on past the first.
    await recordAt(
      "2026-03-01T00:00:00Z",
      Array.from({ length: 1205 }, (_, i) => ({
        action: "embed.denied" as const,
        outcome: "denied" as const,
        actorEmail: `bulk${i % 3}@example.com`,
        targetType: "workbook",
        targetId: String(i),
      })),
    );
    const res = await get("/api/admin/audit.csv?action=embed.denied");
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("text/csv; charset=utf-8");
    expect(res.headers["content-disposition"]).toMatch(
      /^attachment; filename="audit-log-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    expect(res.headers["x-total-count"]).toBe("1205");
    const records = parse(res.body, { columns: true }) as Record<string, string>[];
    expect(records).toHaveLength(1205);
    const ids = await query<{ id: number }>(
      sql`select id from audit_log where action = 'embed.denied' order by occurred_at desc, id desc`,
    );
    expect(records.map((r) => Number(r.id))).toEqual(ids.map((r) => Number(r.id)));
    expect(Object.keys(records[0]!)).toEqual([
      "id",
      "occurred_at",
      "actor_email",
      "actor_user_id",
      "action",
      "outcome",
      "target_type",
      "target_id",
      "ip",
      "user_agent",
      "request_id",
      "before",
      "after",
      "details",
      "chain_seq",
    ]);
    // The export itself is on the trail: who took which part.
    const [exported] = await query<{ actor_email: string; details: unknown }>(sql`select actor_email, details
      from audit_log where action = 'audit.exported' and request_id = ${res.headers["x-request-id"] as string}`);
    expect(exported).toEqual({
      actor_email: expect.stringContaining("@example.com"),
      details: { filters: { action: "embed.denied" } },
    });
    // The list's cap does not apply to the export, and the filters combine as on the list.
    const one = await get("/api/admin/audit.csv?action=embed.denied&person=bulk1%40example.com");
    expect(parse(one.body, { columns: true })).toHaveLength(402);
  });

  it("reads the rows in keyset batches, never the whole result at once", async () => {
    const sizes: number[] = [];
    const ids: number[] = [];
    for await (const batch of auditBatches(database.db, { action: "embed.denied" }, 500)) {
      sizes.push(batch.length);
      ids.push(...batch.map((e) => e.id));
    }
    expect(sizes).toEqual([500, 500, 205]);
    expect(new Set(ids).size).toBe(1205);
  });

  it("writes before/after as JSON and neutralises cells a spreadsheet would run as a formula", async () => {
    await recordAt("2026-04-01T00:00:00Z", [
      {
        action: "client.updated",
        outcome: "success",
        actorEmail: "formula@example.com",
        targetType: "client",
        targetId: "+SUM(A1:A9)",
        ip: "-1+2",
        userAgent: '=HYPERLINK("http://evil.example","x")',
        requestId: "@cmd",
        before: { first_name: "=1+1" },
        after: { first_name: "Plain" },
      },
      {
        action: "client.updated",
        outcome: "success",
        actorEmail: "formula@example.com",
        userAgent: "\tTabbed",
      },
      {
        action: "client.updated",
        outcome: "success",
        actorEmail: "formula@example.com",
        userAgent: "\r=2+2",
      },
      {
        action: "client.updated",
        outcome: "success",
        actorEmail: "formula@example.com",
        userAgent: "Mozilla = fine",
      },
    ]);
    const res = await get("/api/admin/audit.csv?person=formula%40example.com");
    const records = parse(res.body, { columns: true }) as Record<string, string>[];
    expect(records.map((r) => r.user_agent)).toEqual([
      "Mozilla = fine",
      "'\r=2+2",
      "'\tTabbed",
      `'=HYPERLINK("http://evil.example","x")`,
    ]);
    const first = records[3]!;
    expect(first.target_id).toBe("'+SUM(A1:A9)");
    expect(first.ip).toBe("'-1+2");
    expect(first.request_id).toBe("'@cmd");
    expect(JSON.parse(first.before!)).toEqual({ first_name: "=1+1" });
    expect(JSON.parse(first.after!)).toEqual({ first_name: "Plain" });
    expect(records[0]!.before).toBe("");
  });
});

describe("bad input", () => {
  const bad = [
    ["/api/admin/audit?limit=0", /limit must be at least 1/],
    ["/api/admin/audit?limit=501", /limit must be at most 500/],
    ["/api/admin/audit?before=0x10", /before must be a whole number/],
    ["/api/admin/audit?before=5&after=7", /before or after, not both/],
    ["/api/admin/audit?person=not-an-email", /person must be an email address/],
    ["/api/admin/audit?person=a%00b%40example.com", /person/],
    ["/api/admin/audit?action=DROP%20TABLE", /action must be an action name/],
    ["/api/admin/audit?action=client.exploded", /action must be one of the audit actions/],
    ["/api/admin/audit?outcome=maybe", /outcome must be one of success, failure, denied, rate_limited/],
    ["/api/admin/audit?from=2026-02-31", /from must be a date/],
    ["/api/admin/audit?from=yesterday", /from must be a date/],
    ["/api/admin/audit?from=2026-02-02&to=2026-02-01", /from must be earlier than to/],
    ["/api/admin/audit?sort=id", /Unknown query parameter: sort/],
    ["/api/admin/audit.csv?to=2026-13-01", /to must be a date/],
    ["/api/admin/audit.csv?outcome=maybe", /outcome must be one of/],
    ["/api/admin/audit.csv?limit=5", /Unknown query parameter: limit/],
  ] as const;

  it.each(bad)("%s → 400 with the portal's error body, and nothing changes", async (url, message) => {
    // Rows written, not the chain head: the sealer moves the head on its own for earlier rows (decision 023).
    const before = await query<{ n: number }>(sql`select count(*)::int as n from audit_log`);
    const res = await get(url);
    expect(res.statusCode).toBe(400);
    expect(res.headers["content-type"]).toMatch(/^application\/json/);
    expect(res.json()).toEqual({
      error: expect.stringMatching(message),
      code: expect.any(String),
      requestId: expect.any(String),
    });
    expect(await query(sql`select count(*)::int as n from audit_log`)).toEqual(before);
  });
});

describe("authorization", () => {
  const urls = [
    "/api/admin/audit",
    "/api/admin/audit.csv",
    "/api/admin/audit/verify",
    "/api/admin/audit/vocabulary",
  ];
  it.each(urls)(
    "%s: 401 without a session, 403 (audited) for a client, even with bad parameters",
    async (url) => {
      const anonymous = await get(`${url}?limit=0x1`, { origin: ORIGIN });
      expect(anonymous.statusCode).toBe(401);
      const refused = await get(`${url}?limit=0x1`, clientHeaders);
      expect(refused.statusCode).toBe(403);
      const rows = await query<{ target_id: string }>(sql`select target_id from audit_log
      where action = 'access.denied' and request_id = ${refused.headers["x-request-id"] as string}`);
      expect(rows).toEqual([{ target_id: `GET ${url}` }]);
    },
  );
});

describe("chain verification", () => {
  it("GET /api/admin/audit/verify says the chain holds, up to the head", async () => {
    // What the app's sealer does within a moment, done now: the rows written so far have their place.
    await sealAll(database.db);
    const res = await get("/api/admin/audit/verify");
    expect(res.statusCode).toBe(200);
    const [head] = await query<{ seq: number }>(sql`select seq from audit_chain_head`);
    expect(res.json()).toMatchObject({
      ok: true,
      first_bad: null,
      unchained_rows: 0,
      unsealed_rows: expect.any(Number),
      refreshing: false,
      checked_at: expect.any(String),
    });
    expect(res.json().last_seq).toBeGreaterThan(0);
    expect(res.json().last_seq).toBeLessThanOrEqual(Number(head!.seq));
  });

  it("reuses a result while it is fresh, and a stale one while the next check runs; a changed row shows", async () => {
    await database.db
      .transaction(async (tx) => {
        const verification = createAuditVerification(tx, { maxAgeMs: 0 });
        const fresh = await verification.current();
        expect(fresh).toMatchObject({ ok: true, refreshing: false });
        await tx.execute(sql`alter table audit_log disable trigger all`);
        await tx.execute(
          sql`update audit_log set outcome = 'failure' where action = 'workbook.updated' and target_id = '3'`,
        );
        await tx.execute(sql`alter table audit_log enable trigger all`);
        // The old result at once, with a new check under way behind it.
        const stale = await verification.current();
        expect(stale).toMatchObject({ ok: true, refreshing: true, checked_at: fresh.checked_at });
        await vi.waitFor(async () => {
          const now = await verification.current();
          expect(now.ok).toBe(false);
          expect(now.first_bad?.reason).toMatch(/do not match its hash/);
        });
        tx.rollback();
      })
      .catch((error: unknown) => {
        if (!(error instanceof TransactionRollbackError)) throw error;
      });
  });
});

describe("GET /api/admin/audit/vocabulary", () => {
  it("lists the action names and outcomes for the filters", async () => {
    const res = await get("/api/admin/audit/vocabulary");
    expect(res.json()).toMatchObject({
      actions: expect.arrayContaining(["client.created", "auth.sign_in", "access.denied"]),
      outcomes: ["success", "failure", "denied", "rate_limited"],
    });
  });
});

describe("OpenAPI", () => {
  it("describes the audit routes with their query parameters", async () => {
    const res = await t.app.inject({ method: "GET", url: "/api/docs/json" });
    expect(res.statusCode).toBe(200);
    const doc = res.json() as { paths: Record<string, Record<string, unknown>> };
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        "/api/admin/audit",
        "/api/admin/audit.csv",
        "/api/admin/audit/verify",
        "/api/admin/audit/vocabulary",
      ]),
    );
    expect(JSON.stringify(doc.paths["/api/admin/audit"])).toContain('"name":"person"');
  });
});
