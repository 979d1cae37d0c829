import { startAnalyticsServer, type AnalyticsServer } from "@portal/analytics";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "../src/db/client.ts";
import { enqueueOutbox } from "../src/outbox/requests.ts";
import { deliverDueRequests } from "../src/sigma/provisioning.ts";
import { createTestApp, headersFor } from "./support/app.ts";
import { createTestDatabase } from "./support/database.ts";
import { freePort } from "./support/net.ts";

let database: DatabaseHandle;
let t: Awaited<ReturnType<typeof createTestApp>>;
let admin: Record<string, string>;
let analyticsPort: number;

beforeAll(async () => {
  database = await createTestDatabase();
  analyticsPort = await freePort();
  t = await createTestApp(database, {
    ANALYTICS_PORT: String(analyticsPort),
    AUTH_IP_LIMIT_PER_MINUTE: "10000",
  });
  admin = await headersFor(t, "admin");
});
afterAll(async () => {
  await t.app.close();
  await database.close();
});

const get = (url: string) => t.app.inject({ method: "GET", url, headers: admin });
const post = (url: string, payload?: object) =>
  t.app.inject({ method: "POST", url, headers: admin, ...(payload ? { payload } : {}) });
const exec = async <T>(query: ReturnType<typeof sql>) =>
  ((await database.db.execute(query)) as unknown as { rows: T[] }).rows;

describe("/api/admin/sync", () => {
  it("lists every change not yet delivered or refused, with its person or team, attempts, reason and next try", async () => {
    const wb = (
      await post("/api/admin/addworkbook", {
        workbook_name: "Sync-Page-HHHHHHHHHHHHHHHHHHHHHH",
        team_name: "Sync Page Team",
      })
    ).json().data;
    const added = await post("/api/admin/addclient", {
      clientId: "CL-SYNC",
      firstName: "Sid",
      lastName: "Queue",
      email: "sid.queue@example.com",
      password: "orchard-lantern-passphrase",
      role: "client",
      privilege: "View",
      workbookIds: [wb.id],
    });
    expect(added.statusCode).toBe(201);
    const cId = added.json().data.client.c_id;

    // The BI service is not running: every change waits for it, none fails.
    await deliverDueRequests({ db: database.db, client: t.biClient, config: t.config, baseDelayMs: 60_000 });
    const list = await get("/api/admin/sync");
    expect(list.statusCode).toBe(200);
    expect(list.headers["x-total-count"]).toBe("2");
    const [team, member] = list.json();
    // The workbook's sharing with its team (the team made if missing), named as the admin knows it.
    expect(team).toMatchObject({
      kind: "workbook.share",
      subject: "Sync-Page-HHHHHHHHHHHHHHHHHHHHHH",
      team_name: "Sync Page Team",
      person: null,
      status: "pending",
    });
    expect(member).toMatchObject({
      kind: "member.upsert",
      subject: "sid.queue@example.com",
      person: { type: "client", id: cId, business_id: "CL-SYNC", name: "Sid Queue" },
      status: "pending",
      in_flight: false,
    });
    // Tried once, then waiting: the team change's attempt told us the service is down; Sid's waited behind nothing.
    expect(team.attempts).toBe(1);
    expect(team.last_error).toMatch(/^The BI service could not be reached/);
    expect(team.waiting_since).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(Date.parse(team.next_attempt_at)).toBeGreaterThan(Date.now());

    const waiting = await get("/api/admin/sync?status=waiting");
    expect(waiting.json().every((r: { waiting_since: string | null }) => r.waiting_since !== null)).toBe(
      true,
    );
    expect((await get("/api/admin/sync?status=failed")).json()).toEqual([]);

    const clients = (await get("/api/admin/clients?q=CL-SYNC")).json();
    expect(clients[0]).toMatchObject({ sync_status: "pending", sync_waiting_since: expect.any(String) });

    const status = await get("/api/admin/sync/status");
    expect(status.json()).toMatchObject({ reachable: false, pending: 2, waiting: 2, failed: 0 });
  });

  it("retries one change, and all failed ones, including team changes and deleted people's", async () => {
    await exec(sql`delete from provisioning_requests`);
    const a = await enqueueOutbox(database.db, { kind: "team.upsert", payload: { name: "Retry Team" } });
    const b = await enqueueOutbox(database.db, {
      kind: "member.deactivate",
      payload: { email: "gone.person@example.com" },
    });
    const c = await enqueueOutbox(database.db, {
      kind: "member.upsert",
      payload: { email: "late.person@example.com", firstName: "Late", lastName: "Person", privilege: "View" },
    });
    await exec(sql`update provisioning_requests set status = 'failed', attempts = 1, last_error = 'Sigma API 400 bad: no'
                    where id in (${a}, ${b})`);
    await exec(sql`update provisioning_requests set attempts = 3, waiting_since = now(),
                    next_attempt_at = now() + interval '4 minutes' where id = ${c}`);

    expect((await get("/api/admin/sync?status=failed")).json().map((r: { id: string }) => r.id)).toEqual([
      a,
      b,
    ]);
    expect((await get("/api/admin/sync/status")).json()).toMatchObject({ failed: 2, waiting: 1 });

    // Retry one waiting out its backoff: due now.
    const one = await post(`/api/admin/sync/${c}/retry`);
    expect(one.statusCode).toBe(200);
    const [row] = await exec<{ next_attempt_at: Date }>(
      sql`select next_attempt_at from provisioning_requests where id = ${c}`,
    );
    expect(new Date(row!.next_attempt_at).getTime()).toBeLessThanOrEqual(Date.now() + 1000);

    const all = await post("/api/admin/sync/retry-failed");
    expect(all.json()).toEqual({ message: "2 failed changes queued again.", requeued: 2 });
    expect((await get("/api/admin/sync/status")).json()).toMatchObject({ failed: 0, pending: 3 });
    expect((await post("/api/admin/sync/retry-failed")).json()).toEqual({
      message: "Nothing to retry.",
      requeued: 0,
    });

    const audited = await exec<{ action: string }>(
      sql`select action from audit_log where action like 'sync.%' order by occurred_at`,
    );
    expect(audited.map((r) => r.action)).toEqual(["sync.retried", "sync.retried_all", "sync.retried_all"]);

    // Nothing to retry: a delivered change, an unknown id, a malformed id.
    await exec(sql`update provisioning_requests set status = 'done' where id = ${a}`);
    const done = await post(`/api/admin/sync/${a}/retry`);
    expect(done.statusCode).toBe(404);
    expect(done.json().error).toBe("This change is not waiting to be sent any more.");
    expect((await post("/api/admin/sync/00000000-0000-4000-8000-000000000000/retry")).statusCode).toBe(404);
    const bad = await post("/api/admin/sync/1%00/retry");
    expect(bad.statusCode).toBe(400);
    expect((await get("/api/admin/sync?status=lost")).statusCode).toBe(400);
  });

  it("pages through 100,000 waiting changes in queue order", { timeout: 120_000 }, async () => {
    await exec(sql`delete from provisioning_requests`);
    await exec(sql`
      insert into provisioning_requests (kind, subject, payload, status, attempts, waiting_since, last_error)
      select 'member.upsert', 'bulk' || g || '@example.com',
             jsonb_build_object('email', 'bulk' || g || '@example.com', 'firstName', 'Bulk', 'lastName', 'P' || g, 'privilege', 'View'),
             'pending', 1, now(), 'The BI service could not be reached (test).'
        from generate_series(1, 100000) g`);
    const last = await get("/api/admin/sync?limit=50&offset=99950");
    expect(last.statusCode).toBe(200);
    expect(last.headers["x-total-count"]).toBe("100000");
    const page = last.json();
    expect(page).toHaveLength(50);
    expect(page[0].subject).toBe("bulk99951@example.com");
    expect(page[49].subject).toBe("bulk100000@example.com");
    expect(last.headers.link).toContain('rel="prev"');
    expect((await get("/api/admin/sync/status")).json()).toMatchObject({ pending: 100000, waiting: 100000 });
  });

  it("says the BI service is reachable when it answers", { timeout: 60_000 }, async () => {
    let analytics: AnalyticsServer | undefined;
    try {
      analytics = await startAnalyticsServer({
        logger: false,
        buildFrontEnd: false,
        env: {
          DATA_DIR: t.config.dataDir,
          ANALYTICS_PORT: String(analyticsPort),
          ANALYTICS_LOG_LEVEL: "silent",
          ANALYTICS_DEMO_SIZE: "2",
        },
      });
      expect((await get("/api/admin/sync/status")).json()).toMatchObject({ reachable: true });
    } finally {
      await analytics?.close();
    }
  });
});
