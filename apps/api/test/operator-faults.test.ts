import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { connect, createServer, type Server, type Socket } from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fromPostgres, type DatabaseHandle } from "../src/db/client.ts";
import { recordAudit } from "../src/audit/audit.ts";
import { secretFingerprints } from "../src/db/schema.ts";
import { createTestApp, headersFor, ORIGIN } from "./support/app.ts";
import { createScratchDatabase, createTestDatabase } from "./support/database.ts";
import { freePort } from "./support/net.ts";

/**
 * Issue 25: a database that is away is a 503 with Retry-After (the portal's routes and Better Auth's alike),
 * a write cut off mid-way says it may or may not be saved, every 5xx is explained once in the structured
 * log, and settings that do not fit the database make `/readyz` not ready.
 */

/** The log's lines as JSON, collected from the app's own pino stream. */
function logLines() {
  const lines: Array<Record<string, unknown>> = [];
  return {
    lines,
    stream: { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) },
  };
}

const ERROR = 50;

/**
 * A TCP relay in front of the PostgreSQL server, which the test can cut: refused (nothing listens) and every
 * open connection ended, as a restart does; or holding what clients send, so a statement is "sent" when the
 * connection goes.
 */
async function databaseRelay(target: URL) {
  const port = await freePort();
  const sockets = new Set<Socket>();
  let holding = false;
  let server: Server | null = null;
  const open = () =>
    new Promise<void>((resolve) => {
      server = createServer((client) => {
        const upstream = connect(Number(target.port || 5432), target.hostname);
        sockets.add(client).add(upstream);
        client.on("data", (chunk) => {
          if (!holding) upstream.write(chunk);
        });
        upstream.on("data", (chunk) => client.write(chunk));
        const end = () => {
          client.destroy();
          upstream.destroy();
          sockets.delete(client);
          sockets.delete(upstream);
        };
        client.on("close", end).on("error", end);
        upstream.on("close", end).on("error", end);
      });
      server.listen(port, "127.0.0.1", () => resolve());
    });
  await open();
  const url = new URL(target);
  url.host = `127.0.0.1:${port}`;
  return {
    url: url.toString(),
    hold: () => void (holding = true),
    async cut() {
      holding = false;
      // Nothing listens any more (refused), and every open connection ends (server.close alone waits for them).
      const closed = new Promise<void>((resolve) => server!.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      sockets.clear();
      await closed;
    },
    restore: open,
    close: async () => {
      const closed = new Promise<void>((resolve) =>
        server?.listening ? server.close(() => resolve()) : resolve(),
      );
      for (const socket of sockets) socket.destroy();
      await closed;
    },
  };
}

describe("the database away: 503 with Retry-After, never 500", () => {
  const serverUrl = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
  let scratch: Awaited<ReturnType<typeof createScratchDatabase>>;
  let relay: Awaited<ReturnType<typeof databaseRelay>>;
  let database: DatabaseHandle;
  let t: Awaited<ReturnType<typeof createTestApp>>;
  const log = logLines();

  beforeAll(async () => {
    scratch = await createScratchDatabase(serverUrl, "portal_faults");
    relay = await databaseRelay(new URL(scratch.url));
    database = fromPostgres(relay.url);
    await database.migrate();
    t = await createTestApp(
      database,
      { LOG_LEVEL: "warn", AUTH_IP_LIMIT_PER_MINUTE: "1000" },
      { logStream: log.stream },
    );
  });
  afterAll(async () => {
    await t.app.close();
    await database.close();
    await relay.close();
    await scratch.drop();
  });

  it("answers 503 through the portal's routes and Better Auth's while it refuses, then recovers", async () => {
    const admin = await headersFor(t, "admin");
    const client = await t.createUser("client");
    const clientCookie = await t.sessionCookie(client.email, client.password);
    await relay.cut();
    try {
      await expectUnavailable(admin, client, clientCookie);
    } finally {
      await relay.restore();
    }
    expect(
      (await t.app.inject({ method: "GET", url: "/api/me/workbooks", headers: { cookie: clientCookie } }))
        .statusCode,
    ).toBe(200);
    expect((await t.signIn(client.email, client.password)).statusCode).toBe(200);
    expect((await t.app.inject({ method: "GET", url: "/readyz" })).statusCode).toBe(200);
  });

  async function expectUnavailable(
    admin: Record<string, string>,
    client: { email: string; password: string },
    clientCookie: string,
  ) {
    const answers = {
      workbooks: await t.app.inject({
        method: "GET",
        url: "/api/me/workbooks",
        headers: { cookie: clientCookie },
      }),
      adminList: await t.app.inject({ method: "GET", url: "/api/admin/clients", headers: admin }),
      adminWrite: await t.app.inject({
        method: "POST",
        url: "/api/admin/addworkbook",
        headers: admin,
        payload: { workbook_name: "Away-Zx000000000000000000001", team_name: "Away" },
      }),
      session: await t.app.inject({
        method: "GET",
        url: "/api/auth/get-session",
        headers: { cookie: clientCookie, origin: ORIGIN },
      }),
      signIn: await t.signIn(client.email, client.password),
    };
    for (const [name, res] of Object.entries(answers)) {
      expect(res.statusCode, `${name}: ${res.body}`).toBe(503);
      expect(res.headers["retry-after"], name).toBe("5");
      const body = res.json() as { error: string; code: string; requestId: string };
      // Refused before any statement reached the server: nothing was changed, a write included.
      expect(body.code, name).toBe("DEPENDENCY_UNAVAILABLE");
      expect(body.error, name).toContain("nothing was changed");
      expect(body.requestId, name).toBe(res.headers["x-request-id"]);
      // Explained once, at error level, with the request id, the route and the cause.
      const explained = log.lines.filter((l) => l.reqId === body.requestId && Number(l.level) >= ERROR);
      expect(explained, name).toHaveLength(1);
      expect(JSON.stringify(explained[0]!.causes), name).toMatch(/ECONNREFUSED|Connection terminated/);
      expect(explained[0]!.route, name).toMatch(/^\/api\//);
    }
  }

  it("a write whose connection is cut after the statement was sent says it may or may not be saved", async () => {
    const admin = await headersFor(t, "admin");
    // The pool keeps idle connections: the next statement goes out on one, and the relay keeps it.
    relay.hold();
    const pending = t.app.inject({
      method: "POST",
      url: "/api/admin/addworkbook",
      headers: admin,
      payload: { workbook_name: "Cut-Zx000000000000000000002", team_name: "Cut" },
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    await relay.cut();
    const res = await pending;
    await relay.restore();
    expect(res.statusCode, res.body).toBe(503);
    expect(res.headers["retry-after"]).toBe("5");
    expect((res.json() as { code: string }).code).toBe("WRITE_OUTCOME_UNKNOWN");
    expect((res.json() as { error: string }).error).toContain("may or may not have been saved");
  });
});

describe("sign-in guesses answered 503 do not count against the account", () => {
  const serverUrl = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
  let scratch: Awaited<ReturnType<typeof createScratchDatabase>>;
  let relay: Awaited<ReturnType<typeof databaseRelay>>;
  let database: DatabaseHandle;
  let t: Awaited<ReturnType<typeof createTestApp>>;

  beforeAll(async () => {
    scratch = await createScratchDatabase(serverUrl, "portal_faults_lock");
    relay = await databaseRelay(new URL(scratch.url));
    database = fromPostgres(relay.url);
    await database.migrate();
    // With Redis the lock counts there, so a guess is counted while the database is away.
    t = await createTestApp(database, {
      REDIS_URL: "redis://127.0.0.1:6379",
      REDIS_KEY_PREFIX: `faults-${Math.random().toString(36).slice(2)}:`,
      SIGNIN_MAX_FAILURES: "3",
      AUTH_IP_LIMIT_PER_MINUTE: "1000",
    });
  });
  afterAll(async () => {
    await t.app.close();
    await database.close();
    await relay.close();
    await scratch.drop();
  });

  it("five attempts during an outage, then the right password signs in (no lock)", async () => {
    const client = await t.createUser("client");
    await relay.cut();
    try {
      for (let i = 0; i < 5; i += 1) {
        const res = await t.signIn(client.email, client.password, `10.9.0.${i + 1}`);
        expect(res.statusCode, res.body).toBe(503);
      }
    } finally {
      await relay.restore();
    }
    const after = await t.signIn(client.email, client.password, "10.9.1.1");
    expect(after.statusCode, after.body).toBe(200);
    // Wrong guesses still count: three lock the account.
    for (let i = 0; i < 3; i += 1) {
      expect((await t.signIn(client.email, `wrong-${i}-password`, "10.9.2.1")).statusCode).toBe(401);
    }
    expect((await t.signIn(client.email, client.password, "10.9.2.2")).statusCode).toBe(429);
  });
});

describe("every 5xx explained once in the structured log", () => {
  let database: DatabaseHandle;
  let t: Awaited<ReturnType<typeof createTestApp>>;
  const log = logLines();

  beforeAll(async () => {
    database = await createTestDatabase();
    t = await createTestApp(database, { LOG_LEVEL: "info" }, { logStream: log.stream });
  });
  afterAll(async () => {
    await t.app.close();
    await database.close();
  });

  it("an error inside a Better Auth hook: one error line with the request id and the cause", async () => {
    const client = await t.createUser("client");
    // The per-account lock (a before-hook of every sign-in) finds its table gone.
    await database.db.execute(sql`alter table limiter_counters rename to limiter_counters_away`);
    try {
      const res = await t.signIn(client.email, client.password);
      expect(res.statusCode).toBe(500);
      const body = res.json() as { error: string; code: string; requestId: string };
      expect(body.code).toBe("INTERNAL_ERROR");
      // The body says nothing of the cause; the log does.
      expect(body.error).not.toContain("limiter_counters");
      const errors = log.lines.filter((l) => l.reqId === body.requestId && Number(l.level) >= ERROR);
      expect(errors).toHaveLength(1);
      expect(errors[0]!.route).toBe("/api/auth/*");
      expect(errors[0]!.statusCode).toBe(500);
      expect(JSON.stringify(errors[0]!.causes)).toContain("limiter_counters");
    } finally {
      await database.db.execute(sql`alter table limiter_counters_away rename to limiter_counters`);
    }
    expect((await t.signIn(client.email, client.password)).statusCode).toBe(200);
  });

  it("what Better Auth logs on a request that still succeeds is a warning with the request id", async () => {
    const client = await t.createUser("client");
    // The new-device check fails and the sign-in goes on (signin/new-device.ts logs it through Better Auth).
    await database.db.execute(sql`alter table known_devices rename to known_devices_away`);
    try {
      const res = await t.signIn(client.email, client.password);
      expect(res.statusCode).toBe(200);
      const requestId = String(res.headers["x-request-id"]);
      const lines = log.lines.filter((l) => l.reqId === requestId);
      expect(lines.filter((l) => Number(l.level) >= ERROR)).toHaveLength(0);
      const warned = lines.filter((l) => Number(l.level) === 40);
      expect(warned).toHaveLength(1);
      expect(warned[0]!.msg).toContain("The new-device check failed");
      expect(JSON.stringify(warned[0]!.causes)).toContain("known_devices");
    } finally {
      await database.db.execute(sql`alter table known_devices_away rename to known_devices`);
    }
  });
});

/** The chain head's key id, changed past its guard trigger (as a restore of another deployment's data would). */
async function setChainKeyId(database: DatabaseHandle, keyId: string) {
  await database.db.transaction(async (tx) => {
    // First wait for a running instance's sealer to finish its round (it holds the head's row and would then
    // need the table lock that disabling the trigger takes: a deadlock).
    await tx.execute(sql`lock table audit_chain_head in access exclusive mode`);
    await tx.execute(sql`alter table audit_chain_head disable trigger user`);
    await tx.execute(sql`update audit_chain_head set key_id = ${keyId} where id = 1`);
    await tx.execute(sql`alter table audit_chain_head enable trigger user`);
  });
}

describe("settings that do not fit the database", () => {
  let database: DatabaseHandle;
  let t: Awaited<ReturnType<typeof createTestApp>>;

  beforeAll(async () => {
    database = await createTestDatabase();
    t = await createTestApp(database, { AUDIT_KEY: "operator-test-audit-key-0123456789-abcdef" });
  });
  afterAll(async () => {
    await t.app.close();
    await database.close();
  });

  it("an audit key changed under a running instance turns /readyz not ready, naming AUDIT_KEY; writes answer 503", async () => {
    const admin = await headersFor(t, "admin");
    await recordAudit(database.db, { action: "auth.sign_out", outcome: "success" });
    expect((await t.app.inject({ method: "GET", url: "/readyz" })).statusCode).toBe(200);

    // As if the database were restored from a deployment with another key.
    await setChainKeyId(database, "00000000deadbeef");
    try {
      const ready = await t.app.inject({ method: "GET", url: "/readyz" });
      expect(ready.statusCode).toBe(503);
      expect((ready.json() as { error: string }).error).toContain("AUDIT_KEY");
      const write = await t.app.inject({
        method: "POST",
        url: "/api/admin/addworkbook",
        headers: admin,
        payload: { workbook_name: "Keyed-Zx00000000000000000003", team_name: "Keyed" },
      });
      expect(write.statusCode, write.body).toBe(503);
      expect(write.headers["retry-after"]).toBe("5");
    } finally {
      const { auditChainKey } = await import("../src/audit/chain.ts");
      const { id } = auditChainKey(t.config.auditKeySecret);
      await setChainKeyId(database, id);
    }
    expect((await t.app.inject({ method: "GET", url: "/readyz" })).statusCode).toBe(200);
  });

  it("another BETTER_AUTH_SECRET recorded for the database turns /readyz not ready, naming it", async () => {
    await database.db
      .insert(secretFingerprints)
      .values({ name: "BETTER_AUTH_SECRET", fingerprint: "0123456789abcdef" })
      .onConflictDoUpdate({ target: secretFingerprints.name, set: { fingerprint: "0123456789abcdef" } });
    const ready = await t.app.inject({ method: "GET", url: "/readyz" });
    expect(ready.statusCode).toBe(503);
    expect((ready.json() as { error: string }).error).toContain("BETTER_AUTH_SECRET");
    await database.db.execute(sql`delete from secret_fingerprints`);
    expect((await t.app.inject({ method: "GET", url: "/readyz" })).statusCode).toBe(200);
  });
});

describe("an instance whose secrets do not fit the database refuses to start", () => {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
  const tsx = path.join(root, "node_modules/tsx/dist/cli.mjs");
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "portal-secrets-"));
  const AUDIT_KEY = "first-instance-audit-key-0123456789-abcdef";
  const AUTH_SECRET = "first-instance-auth-secret-0123456789-abcdef";

  /** Runs server.ts until it says it is running (then `whileUp`, then SIGTERM) or exits; what it printed. */
  function runServer(env: Record<string, string>, whileUp?: (url: string) => Promise<void>) {
    return new Promise<{ code: number | null; output: string }>((resolve) => {
      void freePort().then((port) => {
        const url = `http://127.0.0.1:${port}`;
        const child = spawn(process.execPath, [tsx, path.join(root, "apps/api/src/server.ts")], {
          cwd: root,
          env: {
            PATH: process.env.PATH ?? "",
            NODE_ENV: "test",
            DATA_DIR: dataDir,
            HOST: "127.0.0.1",
            PORT: String(port),
            PUBLIC_URL: url,
            ANALYTICS_PORT: "3999",
            DEMO_DATA: "off",
            LOG_LEVEL: "silent",
            ...env,
          },
        });
        let output = "";
        let up = false;
        child.stdout.on("data", (chunk: Buffer) => {
          output += chunk.toString();
          if (!up && output.includes("is running at")) {
            up = true;
            void (whileUp?.(url) ?? Promise.resolve()).finally(() => child.kill("SIGTERM"));
          }
        });
        child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
        child.once("exit", (code) => resolve({ code, output }));
      });
    });
  }

  it("a database that cannot be reached stops start-up with a message naming DATABASE_URL", async () => {
    const closedPort = await freePort();
    const started = await runServer({ DATABASE_URL: `postgres://postgres@127.0.0.1:${closedPort}/portal` });
    expect(started.code).toBe(1);
    expect(started.output).not.toContain("is running at");
    expect(started.output).toContain("the database (DATABASE_URL) is not reachable (ECONNREFUSED");
  }, 60_000);

  it("names AUDIT_KEY, or BETTER_AUTH_SECRET, before it listens", async () => {
    // The first instance writes the audit chain (a refused sign-in is audited) with its key.
    const first = await runServer({ AUDIT_KEY, BETTER_AUTH_SECRET: AUTH_SECRET }, async (url) => {
      const res = await fetch(`${url}/api/auth/sign-in/email`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: url },
        body: JSON.stringify({ email: "nobody@example.com", password: "not-the-password-1" }),
      });
      expect(res.status).toBe(401);
    });
    expect(first.output).toContain("is running at");

    const otherAuditKey = await runServer({
      AUDIT_KEY: "another-audit-key-0123456789-abcdefghijkl",
      BETTER_AUTH_SECRET: AUTH_SECRET,
    });
    expect(otherAuditKey.code).toBe(1);
    expect(otherAuditKey.output).not.toContain("is running at");
    expect(otherAuditKey.output).toContain(
      "AUDIT_KEY: the audit chain in this database was written with another key",
    );

    const otherAuthSecret = await runServer({
      AUDIT_KEY,
      BETTER_AUTH_SECRET: "another-auth-secret-0123456789-abcdefghijk",
    });
    expect(otherAuthSecret.code).toBe(1);
    expect(otherAuthSecret.output).not.toContain("is running at");
    expect(otherAuthSecret.output).toContain("BETTER_AUTH_SECRET: this database was set up with another");

    // The right settings start again.
    const again = await runServer({ AUDIT_KEY, BETTER_AUTH_SECRET: AUTH_SECRET }, async () => undefined);
    expect(again.output).toContain("is running at");
  }, 120_000);
});
