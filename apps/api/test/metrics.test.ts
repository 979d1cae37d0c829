import { randomUUID } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { createServer, type Socket } from "node:net";
import os from "node:os";
import path from "node:path";
import { startAnalyticsServer } from "@portal/analytics";
import { sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../src/config.ts";
import type { DatabaseHandle } from "../src/db/client.ts";
import { startMetricsListener } from "../src/metrics/listener.ts";
import { createTestApp, headersFor, ORIGIN } from "./support/app.ts";
import { createTestDatabase } from "./support/database.ts";
import { freePort } from "./support/net.ts";

/**
 * Prometheus's /metrics (README, "Metrics"): a short load on a real app and database, then the scrape as
 * Prometheus reads it. The sign-in and audit counters are the process's (metrics/counters.ts), so those
 * are read as the difference between two scrapes of the same app, with nothing else running between them.
 */
const TOKEN = "metrics-token-0123456789abcdef";
const AUTH = { authorization: `Bearer ${TOKEN}` };

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}
interface Scrape {
  text: string;
  types: Map<string, string>;
  samples: Sample[];
}

/** Prometheus's text format (version 0.0.4), as prom-client writes it: no timestamps. */
function parse(text: string): Scrape {
  const types = new Map<string, string>();
  const samples: Sample[] = [];
  for (const line of text.split("\n")) {
    const type = /^# TYPE (\S+) (\S+)$/.exec(line);
    if (type) types.set(type[1]!, type[2]!);
    if (line === "" || line.startsWith("#")) continue;
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match) throw new Error(`not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const [, name, value] of (match[2] ?? "").matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) {
      labels[name!] = value!;
    }
    samples.push({ name: match[1]!, labels, value: Number(match[3]) });
  }
  return { text, types, samples };
}

/** The value of the series with exactly these labels; undefined when there is none. */
function valueOf(scrape: Scrape, name: string, labels: Record<string, string> = {}): number | undefined {
  const wanted = Object.entries(labels);
  return scrape.samples.find(
    (s) =>
      s.name === name &&
      Object.keys(s.labels).length === wanted.length &&
      wanted.every(([k, v]) => s.labels[k] === v),
  )?.value;
}

async function scrape(app: FastifyInstance): Promise<Scrape> {
  const res = await app.inject({ method: "GET", url: "/metrics", headers: AUTH });
  expect(res.statusCode, res.body).toBe(200);
  expect(res.headers["content-type"]).toBe("text/plain; version=0.0.4; charset=utf-8");
  expect(res.headers["cache-control"]).toBe("no-store");
  return parse(res.body);
}

async function waitFor<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string): Promise<T> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not reached within 10 s`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

let database: DatabaseHandle;
let t: Awaited<ReturnType<typeof createTestApp>>;
let admin: Record<string, string>;
const exec = async <T>(query: ReturnType<typeof sql>) =>
  ((await database.db.execute(query)) as unknown as { rows: T[] }).rows;

beforeAll(async () => {
  database = await createTestDatabase();
  t = await createTestApp(database, {
    METRICS_TOKEN: TOKEN,
    SIGNIN_MAX_FAILURES: "2",
    AUTH_IP_LIMIT_PER_MINUTE: "100000",
    // Nothing listens there: the BI service is unreachable for this app.
    ANALYTICS_PORT: String(await freePort()),
  });
  admin = await headersFor(t, "admin");
});
afterAll(async () => {
  await t.app.close();
  await database.close();
});

describe("GET /metrics with METRICS_TOKEN", () => {
  it("counts a short load and reads the outbox, the BI service, Redis and the database pool", async () => {
    const client = await t.createUser("client");
    const locked = await t.createUser("client");
    const before = await scrape(t.app);
    // The rows already there (ids are taken in blocks per connection pool, so "later" is not "higher").
    const [{ ids: idsBefore } = { ids: [] }] = await exec<{ ids: string[] }>(
      sql`select coalesce(array_agg(id::text), '{}') as ids from audit_log`,
    );
    const since = sql`not (id = any(${sql.param(idsBefore)}::bigint[]))`;

    // Sign-ins: one success, one wrong password, and an account locked after two wrong guesses.
    expect((await t.signIn(client.email, client.password, "10.9.0.1")).statusCode).toBe(200);
    expect((await t.signIn(client.email, "not-the-password-1", "10.9.0.2")).statusCode).toBe(401);
    expect((await t.signIn(locked.email, "wrong-guess-number-1", "10.9.0.3")).statusCode).toBe(401);
    expect((await t.signIn(locked.email, "wrong-guess-number-2", "10.9.0.4")).statusCode).toBe(401);
    expect((await t.signIn(locked.email, locked.password, "10.9.0.5")).statusCode).toBe(429);
    // Pages and API calls, a 404 and a 401 among them.
    for (let i = 0; i < 3; i++) expect((await t.app.inject("/api/config")).statusCode).toBe(200);
    expect((await t.app.inject("/healthz")).statusCode).toBe(200);
    expect((await t.app.inject("/no-such-page/12345")).statusCode).toBe(404);
    expect((await t.app.inject("/api/admin/clients")).statusCode).toBe(401);
    // An admin's changes: audit rows, and a BI member for the outbox.
    const post = (url: string, payload: object) =>
      t.app.inject({ method: "POST", url, headers: admin, payload });
    const workbook = await post("/api/admin/addworkbook", {
      workbook_name: "Metrics-MMMMMMMMMMMMMMMMMMMMMM",
      team_name: "Metrics Team",
    });
    expect(workbook.statusCode).toBe(201);
    const added = await post("/api/admin/addclient", {
      clientId: "CL-METRICS",
      firstName: "Mia",
      lastName: "Metrics",
      email: "mia.metrics@example.com",
      password: "harbour-lantern-passphrase",
      role: "client",
      privilege: "View",
      workbookIds: [workbook.json().data.id],
    });
    expect(added.statusCode).toBe(201);
    // The new client opens the workbook: a second sign-in, and an audit row through the group commit.
    const mia = {
      cookie: await t.sessionCookie("mia.metrics@example.com", "harbour-lantern-passphrase"),
      origin: ORIGIN,
    };
    const embed = await t.app.inject({
      method: "POST",
      url: "/api/sigma/provision-and-embed",
      headers: mia,
      payload: { workbookId: "Metrics-MMMMMMMMMMMMMMMMMMMMMM" },
    });
    expect(embed.statusCode, embed.body).toBe(200);

    const after = await scrape(t.app);
    const delta = (name: string, labels: Record<string, string> = {}) =>
      (valueOf(after, name, labels) ?? 0) - (valueOf(before, name, labels) ?? 0);

    for (const [name, type] of Object.entries({
      portal_http_requests_total: "counter",
      portal_http_request_duration_seconds: "histogram",
      portal_http_server_errors_total: "counter",
      portal_sign_ins_total: "counter",
      portal_audit_rows_appended_total: "counter",
      portal_outbox_pending_changes: "gauge",
      portal_outbox_failed_changes: "gauge",
      portal_outbox_oldest_pending_age_seconds: "gauge",
      portal_bi_service_up: "gauge",
      portal_redis_state: "gauge",
      portal_db_pool_connections: "gauge",
      portal_db_pool_idle_connections: "gauge",
      portal_db_pool_waiting_requests: "gauge",
      // prom-client's default metrics of the process.
      process_cpu_user_seconds_total: "counter",
      nodejs_heap_size_used_bytes: "gauge",
    })) {
      expect(after.types.get(name), name).toBe(type);
    }

    // Sign-ins, as the trail recorded them.
    expect(delta("portal_sign_ins_total", { outcome: "success" })).toBe(2);
    expect(delta("portal_sign_ins_total", { outcome: "failure" })).toBe(3);
    expect(delta("portal_sign_ins_total", { outcome: "locked" })).toBe(1);
    const trail = await exec<{ outcome: string; n: number }>(sql`
      select outcome, count(*)::int as n from audit_log
       where action = 'auth.sign_in' and ${since} group by outcome order by outcome`);
    expect(trail).toEqual([
      { outcome: "failure", n: 3 },
      { outcome: "rate_limited", n: 1 },
      { outcome: "success", n: 2 },
    ]);

    // Requests by route pattern, never by the raw URL; the scrapes themselves are not counted.
    expect(delta("portal_http_requests_total", { method: "GET", route: "/api/config", status: "200" })).toBe(
      3,
    );
    expect(delta("portal_http_requests_total", { method: "GET", route: "/healthz", status: "200" })).toBe(1);
    expect(delta("portal_http_requests_total", { method: "GET", route: "unmatched", status: "404" })).toBe(1);
    expect(
      delta("portal_http_requests_total", { method: "GET", route: "/api/admin/clients", status: "401" }),
    ).toBe(1);
    expect(delta("portal_http_requests_total", { method: "POST", route: "/api/auth/*", status: "401" })).toBe(
      3,
    );
    expect(delta("portal_http_requests_total", { method: "POST", route: "/api/auth/*", status: "429" })).toBe(
      1,
    );
    expect(
      delta("portal_http_requests_total", { method: "POST", route: "/api/admin/addclient", status: "201" }),
    ).toBe(1);
    expect(
      delta("portal_http_requests_total", {
        method: "POST",
        route: "/api/sigma/provision-and-embed",
        status: "200",
      }),
    ).toBe(1);
    expect(after.text).not.toContain("12345");
    expect(after.samples.filter((s) => s.labels.route === "/metrics")).toEqual([]);
    const duration = { method: "GET", route: "/api/config" };
    expect(delta("portal_http_request_duration_seconds_count", duration)).toBe(3);
    expect(delta("portal_http_request_duration_seconds_sum", duration)).toBeGreaterThan(0);
    expect(delta("portal_http_request_duration_seconds_bucket", { ...duration, le: "+Inf" })).toBe(3);
    expect(after.samples.filter((s) => s.name === "portal_http_server_errors_total")).toEqual([]);

    // Every row appended since the first scrape, and each once (background rows may still be landing).
    await waitFor(
      async () => {
        const [{ n }] = (await exec<{ n: number }>(
          sql`select count(*)::int as n from audit_log where ${since}`,
        )) as [{ n: number }];
        const counted =
          (valueOf(await scrape(t.app), "portal_audit_rows_appended_total") ?? 0) -
          (valueOf(before, "portal_audit_rows_appended_total") ?? 0);
        return { n, counted };
      },
      ({ n, counted }) => n >= 9 && counted === n,
      "audit rows counted as appended",
    );

    // The outbox, as the database has it: the new client's BI member (and the workbook's team) pending.
    const [queue] = await exec<{ pending: number; failed: number }>(sql`
      select count(*) filter (where status = 'pending')::int as pending,
             count(*) filter (where status = 'failed')::int as failed from provisioning_requests`);
    expect(queue!.pending).toBeGreaterThanOrEqual(1);
    expect(valueOf(after, "portal_outbox_pending_changes")).toBe(queue!.pending);
    expect(valueOf(after, "portal_outbox_failed_changes")).toBe(0);
    const age = valueOf(after, "portal_outbox_oldest_pending_age_seconds")!;
    expect(age).toBeGreaterThanOrEqual(0);
    expect(age).toBeLessThan(600);

    // Nothing listens on this app's BI port; no REDIS_URL; PGlite is one connection.
    expect(valueOf(after, "portal_bi_service_up")).toBe(0);
    expect(valueOf(after, "portal_redis_state", { state: "not_configured" })).toBe(1);
    expect(valueOf(after, "portal_redis_state", { state: "connected" })).toBe(0);
    expect(valueOf(after, "portal_redis_state", { state: "unreachable" })).toBe(0);
    expect(valueOf(after, "portal_db_pool_connections")).toBeGreaterThanOrEqual(1);
    expect(valueOf(after, "portal_db_pool_idle_connections")).toBeGreaterThanOrEqual(0);
    expect(valueOf(after, "portal_db_pool_waiting_requests")).toBe(0);
    expect(valueOf(after, "process_cpu_user_seconds_total")).toBeGreaterThan(0);
  });

  it("counts a refused change as failed, and the oldest pending change's age", async () => {
    await exec(sql`
      update provisioning_requests set status = 'failed', last_error = 'refused in a test'
       where id = (select id from provisioning_requests where status = 'pending' order by seq limit 1)`);
    await exec(sql`
      update provisioning_requests set created_at = now() - interval '20 minutes'
       where id = (select id from provisioning_requests where status = 'pending' order by seq limit 1)`);
    const [queue] = await exec<{ pending: number; failed: number }>(sql`
      select count(*) filter (where status = 'pending')::int as pending,
             count(*) filter (where status = 'failed')::int as failed from provisioning_requests`);
    const metrics = await scrape(t.app);
    expect(valueOf(metrics, "portal_outbox_failed_changes")).toBe(1);
    expect(valueOf(metrics, "portal_outbox_failed_changes")).toBe(queue!.failed);
    expect(valueOf(metrics, "portal_outbox_pending_changes")).toBe(queue!.pending);
    const age = valueOf(metrics, "portal_outbox_oldest_pending_age_seconds")!;
    expect(age).toBeGreaterThanOrEqual(20 * 60);
    expect(age).toBeLessThan(21 * 60);
  });

  it("counts a 5xx answer by its route", async () => {
    const before = await scrape(t.app);
    t.lifecycle.draining = true;
    try {
      expect((await t.app.inject("/readyz")).statusCode).toBe(503);
    } finally {
      t.lifecycle.draining = false;
    }
    const after = await scrape(t.app);
    expect(valueOf(before, "portal_http_server_errors_total", { route: "/readyz" }) ?? 0).toBe(0);
    expect(valueOf(after, "portal_http_server_errors_total", { route: "/readyz" })).toBe(1);
    expect(
      valueOf(after, "portal_http_requests_total", { method: "GET", route: "/readyz", status: "503" }),
    ).toBe(1);
  });

  it("refuses a scrape without the token, with a wrong one, or in another scheme (401, the portal's body)", async () => {
    const wrong = `${TOKEN.slice(0, -1)}X`;
    for (const headers of [
      {},
      { authorization: `Bearer ${wrong}` },
      { authorization: `Bearer ${TOKEN}extra` },
      { authorization: `Basic ${Buffer.from(`metrics:${TOKEN}`).toString("base64")}` },
      { authorization: TOKEN },
    ]) {
      const res = await t.app.inject({ method: "GET", url: "/metrics", headers });
      expect(res.statusCode, JSON.stringify(headers)).toBe(401);
      expect(res.json()).toEqual({
        error: "The metrics token is missing or wrong.",
        code: "BAD_TOKEN",
        requestId: res.headers["x-request-id"],
      });
    }
    const inQuery = await t.app.inject({ method: "GET", url: `/metrics?token=${TOKEN}` });
    expect(inQuery.statusCode).toBe(401);
    // Refused scrapes are not counted either.
    expect((await scrape(t.app)).samples.filter((s) => s.labels.route === "/metrics")).toEqual([]);
  });
});

describe("the BI service's reachability", () => {
  it("is 1 when it answers, and the answer is reused for 30 s (a stopped service still reads 1)", async () => {
    const port = await freePort();
    const app = await createTestApp(database, { METRICS_TOKEN: TOKEN, ANALYTICS_PORT: String(port) });
    const analytics = await startAnalyticsServer({
      logger: false,
      buildFrontEnd: false,
      env: {
        DATA_DIR: app.config.dataDir,
        ANALYTICS_PORT: String(port),
        ANALYTICS_LOG_LEVEL: "silent",
        ANALYTICS_DEMO_SIZE: "2",
      },
    });
    try {
      expect(valueOf(await scrape(app.app), "portal_bi_service_up")).toBe(1);
      await analytics.close();
      expect(await app.biClient.ping()).toBe(false);
      expect(valueOf(await scrape(app.app), "portal_bi_service_up")).toBe(1);
    } finally {
      await analytics.close().catch(() => undefined);
      await app.app.close();
    }
  });

  it("holds a scrape at most about 2 s when the service does not answer", async () => {
    const sockets = new Set<Socket>();
    const silent = createServer((socket) => sockets.add(socket));
    const port = await freePort();
    await new Promise<void>((resolve) => silent.listen(port, "127.0.0.1", resolve));
    const app = await createTestApp(database, { METRICS_TOKEN: TOKEN, ANALYTICS_PORT: String(port) });
    try {
      const started = Date.now();
      const metrics = await scrape(app.app);
      const took = Date.now() - started;
      expect(sockets.size).toBeGreaterThanOrEqual(1);
      expect(took).toBeGreaterThanOrEqual(1_900);
      expect(took).toBeLessThan(5_000);
      expect(valueOf(metrics, "portal_bi_service_up")).toBe(0);
    } finally {
      await app.app.close();
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  });
});

describe("where /metrics is served", () => {
  it("is 404 like any unknown path without METRICS_TOKEN and METRICS_PORT", async () => {
    const app = await createTestApp(database);
    try {
      expect(app.app.metrics).toBeNull();
      const res = await app.app.inject({ method: "GET", url: "/metrics", headers: AUTH });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ code: "NOT_FOUND" });
    } finally {
      await app.app.close();
    }
  });

  it("with METRICS_PORT, serves it on that port (the token still required) and not on the main one", async () => {
    const port = await freePort();
    const app = await createTestApp(database, { METRICS_TOKEN: TOKEN, METRICS_PORT: String(port) });
    const listener = await startMetricsListener(app.app, app.config, database.db);
    try {
      expect(listener).toBeDefined();
      expect(listener!.server.address()).toMatchObject({ address: "127.0.0.1", port });
      const onMain = await app.app.inject({ method: "GET", url: "/metrics", headers: AUTH });
      expect(onMain.statusCode).toBe(404);
      expect(onMain.body).not.toContain("portal_");
      expect((await app.app.inject("/healthz")).statusCode).toBe(200);

      const url = `http://127.0.0.1:${port}/metrics`;
      const refused = await fetch(url);
      expect(refused.status).toBe(401);
      const body = (await refused.json()) as Record<string, unknown>;
      expect(body).toEqual({
        error: "The metrics token is missing or wrong.",
        code: "BAD_TOKEN",
        requestId: expect.any(String) as unknown,
      });
      expect(
        (await fetch(url, { headers: { authorization: "Bearer wrong-token-wrong-token-wrong" } })).status,
      ).toBe(401);
      const served = await fetch(url, { headers: AUTH });
      expect(served.status).toBe(200);
      expect(served.headers.get("content-type")).toBe("text/plain; version=0.0.4; charset=utf-8");
      const metrics = parse(await served.text());
      // The main app's requests, counted there; the refused main-port /metrics as the 404 it was.
      expect(
        valueOf(metrics, "portal_http_requests_total", { method: "GET", route: "/healthz", status: "200" }),
      ).toBe(1);
      expect(
        valueOf(metrics, "portal_http_requests_total", { method: "GET", route: "unmatched", status: "404" }),
      ).toBe(1);
      expect(metrics.types.get("portal_outbox_pending_changes")).toBe("gauge");
      const elsewhere = await fetch(`http://127.0.0.1:${port}/api/config`, { headers: AUTH });
      expect(elsewhere.status).toBe(404);
      expect(await elsewhere.json()).toMatchObject({ code: "NOT_FOUND" });
    } finally {
      await listener?.close();
      await app.app.close();
    }
  });

  it("with METRICS_PORT and no token, answers on that port without one; without METRICS_PORT, nothing listens", async () => {
    const port = await freePort();
    const open = await createTestApp(database, { METRICS_PORT: String(port) });
    const listener = await startMetricsListener(open.app, open.config, database.db);
    try {
      const served = await fetch(`http://127.0.0.1:${port}/metrics`);
      expect(served.status).toBe(200);
      expect(await served.text()).toContain("# TYPE portal_http_requests_total counter");
    } finally {
      await listener?.close();
      await open.app.close();
    }
    expect(await startMetricsListener(t.app, t.config, database.db)).toBeUndefined();
  });
});

describe("Redis in the metrics", () => {
  it("reads connected with a real Redis and unreachable where none answers", async () => {
    const connected = await createTestApp(database, {
      METRICS_TOKEN: TOKEN,
      REDIS_URL: "redis://127.0.0.1:6379",
      REDIS_KEY_PREFIX: `test-metrics-${randomUUID()}:`,
    });
    const unreachable = await createTestApp(database, {
      METRICS_TOKEN: TOKEN,
      REDIS_URL: `redis://127.0.0.1:${await freePort()}`,
      REDIS_KEY_PREFIX: `test-metrics-${randomUUID()}:`,
    });
    try {
      const metrics = await waitFor(
        () => scrape(connected.app),
        (m) => valueOf(m, "portal_redis_state", { state: "connected" }) === 1,
        "Redis connected",
      );
      expect(valueOf(metrics, "portal_redis_state", { state: "unreachable" })).toBe(0);
      expect(valueOf(metrics, "portal_redis_state", { state: "not_configured" })).toBe(0);
      const down = await scrape(unreachable.app);
      expect(valueOf(down, "portal_redis_state", { state: "unreachable" })).toBe(1);
      expect(valueOf(down, "portal_redis_state", { state: "connected" })).toBe(0);
      expect(valueOf(down, "portal_redis_state", { state: "not_configured" })).toBe(0);
    } finally {
      await connected.app.close();
      await unreachable.app.close();
    }
  });
});

describe("a database that does not answer", () => {
  it("still answers the scrape, with the outbox as no value (NaN) and the 5xx counted", async () => {
    const lost = await createTestDatabase();
    const app = await createTestApp(lost, { METRICS_TOKEN: TOKEN });
    try {
      await lost.close();
      const res = await app.app.inject("/readyz");
      expect(res.statusCode).toBe(503);
      const metrics = await scrape(app.app);
      expect(valueOf(metrics, "portal_outbox_pending_changes")).toBeNaN();
      expect(valueOf(metrics, "portal_outbox_failed_changes")).toBeNaN();
      expect(valueOf(metrics, "portal_outbox_oldest_pending_age_seconds")).toBeNaN();
      expect(valueOf(metrics, "portal_http_server_errors_total", { route: "/readyz" })).toBe(1);
    } finally {
      await app.app.close();
    }
  });
});

describe("METRICS_TOKEN and METRICS_PORT settings", () => {
  const base = {
    NODE_ENV: "test",
    DATA_DIR: mkdtempSync(path.join(os.tmpdir(), "portal-metrics-config-")),
    BETTER_AUTH_SECRET: "test-secret-test-secret-test-secret-0123456789",
  };
  const problemsOf = (env: Record<string, string>) => {
    try {
      loadConfig({ ...base, ...env });
    } catch (error) {
      if (error instanceof ConfigError) return error.problems;
      throw error;
    }
    return [];
  };

  it("refuses a short token and a metrics port that is the main one, with readable messages", () => {
    expect(problemsOf({ METRICS_TOKEN: "too-short-token" })).toEqual([
      "METRICS_TOKEN: must be at least 24 characters (a random secret the scraper sends)",
    ]);
    expect(problemsOf({ PORT: "4100", METRICS_PORT: "4100" })).toEqual([
      "METRICS_PORT must differ from PORT (leave it unset to serve /metrics on PORT)",
    ]);
    expect(problemsOf({ METRICS_PORT: "not-a-port" })).toHaveLength(1);
    expect(problemsOf({ METRICS_PORT: "70000" })).toHaveLength(1);
  });

  it("reads both, and neither by default", () => {
    expect(loadConfig(base).metrics).toEqual({ token: undefined, port: undefined });
    expect(loadConfig({ ...base, METRICS_TOKEN: TOKEN, METRICS_PORT: "9464" }).metrics).toEqual({
      token: TOKEN,
      port: 9464,
    });
  });
});
