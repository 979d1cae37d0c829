import { randomUUID } from "node:crypto";
import { DEMO_CLIENTS, DEMO_WORKBOOKS } from "@portal/contracts/demo";
import { sql } from "drizzle-orm";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "../src/db/client.ts";
import { seedDemoData } from "../src/demo/seed.ts";
import { cookieHeader, createTestApp, headersFor, ORIGIN } from "./support/app.ts";
import { createTestDatabase } from "./support/database.ts";
import { startPrivateRedis, type PrivateRedis } from "./support/private-redis.ts";

/**
 * Two portal instances on one database and one real Redis (a private redis-server, so it can be stopped
 * and started without disturbing anything else): the shared state of decision 009.
 */
let database: DatabaseHandle;
let redis: PrivateRedis;
let redisPort: number;
let a: Awaited<ReturnType<typeof createTestApp>>;
let b: Awaited<ReturnType<typeof createTestApp>>;
const [olivia] = DEMO_CLIENTS;
const [portfolio] = DEMO_WORKBOOKS;

async function waitFor(check: () => Promise<boolean>, ms = 10_000, what = "condition") {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`${what} not reached within ${ms} ms`);
}

beforeAll(async () => {
  redis = await startPrivateRedis();
  redisPort = Number(new URL(redis.url).port);
  database = await createTestDatabase();
  const env = {
    REDIS_URL: redis.url,
    REDIS_KEY_PREFIX: `test-${randomUUID()}:`,
    // Long enough that only an invalidation, never the time to live, can explain a refusal below.
    ACCESS_CACHE_SECONDS: "60",
    AUTH_IP_LIMIT_PER_MINUTE: "100000",
    EMBED_RATE_LIMIT_PER_MINUTE: "6",
  };
  a = await createTestApp(database, env);
  b = await createTestApp(database, env);
  await seedDemoData(a.auth, database.db);
  const ready = async (t: typeof a) =>
    (await t.app.inject({ method: "GET", url: "/readyz" })).json().status === "ready";
  await waitFor(async () => (await ready(a)) && (await ready(b)));
}, 60_000);

afterAll(async () => {
  await a?.app.close();
  await b?.app.close();
  await database?.close();
  await redis.stop();
});

const me = (t: typeof a, cookie: string) =>
  t.app.inject({ method: "GET", url: "/api/me/workbooks", headers: { cookie } });

describe("several instances with REDIS_URL", () => {
  it("a session from one works on the other; a sign-out on one is refused on the other within 100 ms", async () => {
    const cookie = await a.sessionCookie(olivia.email, olivia.password);
    expect((await me(b, cookie)).statusCode).toBe(200);
    expect((await me(b, cookie)).statusCode).toBe(200); // now cached on b

    const out = await a.app.inject({
      method: "POST",
      url: "/api/auth/sign-out",
      headers: { cookie, origin: ORIGIN },
    });
    expect(out.statusCode).toBe(200);
    const signedOutAt = Date.now();
    await waitFor(async () => (await me(b, cookie)).statusCode === 401, 1_000);
    expect(Date.now() - signedOutAt).toBeLessThan(100);
  });

  it("sessions ended from the profile or by an admin on one instance are refused on the other within 100 ms", async () => {
    const here = await a.sessionCookie(olivia.email, olivia.password);
    const there = await a.sessionCookie(olivia.email, olivia.password);
    expect((await me(b, there)).statusCode).toBe(200); // cached on b
    const listed = await a.app.inject({ method: "GET", url: "/api/me/sessions", headers: { cookie: there } });
    const thereId = (listed.json() as { id: string; current: boolean }[]).find((s) => s.current)!.id;
    const out = await a.app.inject({
      method: "DELETE",
      url: `/api/me/sessions/${thereId}`,
      headers: { cookie: here, origin: ORIGIN },
    });
    expect(out.statusCode).toBe(200);
    const signedOutAt = Date.now();
    await waitFor(async () => (await me(b, there)).statusCode === 401, 1_000, "profile sign-out seen");
    expect(Date.now() - signedOutAt).toBeLessThan(100);

    expect((await me(b, here)).statusCode).toBe(200); // cached on b
    const admin = await headersFor(a, "admin");
    const [client] = (
      await a.app.inject({ method: "GET", url: `/api/admin/clients?q=${olivia.email}`, headers: admin })
    ).json() as { c_id: number }[];
    const ended = await a.app.inject({
      method: "POST",
      url: `/api/admin/revokesessionsclient/${client!.c_id}`,
      headers: admin,
    });
    expect(ended.json()).toMatchObject({ revoked: 1 });
    const endedAt = Date.now();
    await waitFor(async () => (await me(b, here)).statusCode === 401, 1_000, "admin's sign-out seen");
    expect(Date.now() - endedAt).toBeLessThan(100);
  });

  it("a delegation the client revokes on one instance is refused on the other at once (issue 23)", async () => {
    const delegate = await a.createUser("delegate", { name: "Daniel Reyes" });
    const rowsOf = async <T>(statement: ReturnType<typeof sql>) =>
      ((await database.db.execute(statement)) as unknown as { rows: T[] }).rows;
    const [olivias] = await rowsOf<{ c_id: number }>(
      sql`select c_id from clients where email = ${olivia.email}`,
    );
    const [granted] = await rowsOf<{ id: number }>(sql`
      insert into delegations (c_id, user_id, email, name, accepted_at)
      values (${olivias!.c_id}, ${delegate.userId}, ${delegate.email}, 'Daniel Reyes', now()) returning id`);
    const cookie = await b.sessionCookie(delegate.email, delegate.password);
    const shared = () =>
      b.app.inject({ method: "GET", url: `/api/me/workbooks?client=${olivias!.c_id}`, headers: { cookie } });
    expect((await shared()).statusCode).toBe(200);
    expect((await shared()).statusCode).toBe(200); // now cached on b

    const owner = await a.sessionCookie(olivia.email, olivia.password);
    const revoked = await a.app.inject({
      method: "DELETE",
      url: `/api/me/delegates/${granted!.id}`,
      headers: { cookie: owner, origin: ORIGIN },
    });
    expect(revoked.statusCode).toBe(200);
    const revokedAt = Date.now();
    await waitFor(async () => (await shared()).statusCode === 404, 1_000, "revocation seen on b");
    expect(Date.now() - revokedAt).toBeLessThan(1_000);
  });

  it("10 wrong passwords split across both instances lock the account, counted in Redis", async () => {
    const { email, password } = await a.createUser("client");
    for (let i = 0; i < 10; i++) {
      const instance = i % 2 ? b : a;
      expect((await instance.signIn(email, `split-wrong-${i}`, `203.0.113.${i + 1}`)).statusCode).toBe(401);
    }
    expect((await a.signIn(email, password, "203.0.113.50")).statusCode).toBe(429);
    expect((await b.signIn(email, password, "203.0.113.51")).statusCode).toBe(429);
    const probe = new Redis(redisPort, "127.0.0.1");
    try {
      const keys = await probe.keys(`${a.config.redis!.prefix}sign-in:*${email}`);
      expect(keys.length).toBe(2);
    } finally {
      probe.disconnect();
    }
  });

  it("per-IP limits are one count in Redis across both instances, and parallel requests cannot outrun it", async () => {
    const env = {
      REDIS_URL: a.config.redis!.url,
      REDIS_KEY_PREFIX: `test-ip-${randomUUID()}:`,
      AUTH_IP_LIMIT_PER_MINUTE: "4",
    };
    const c = await createTestApp(database, env);
    const d = await createTestApp(database, env);
    try {
      // Both connected to Redis first: until then each instance counts on its own (the fallback), by design.
      const ready = async (t: typeof c) =>
        (await t.app.inject({ method: "GET", url: "/readyz" })).json().status === "ready";
      await waitFor(async () => (await ready(c)) && (await ready(d)), 10_000, "both instances on Redis");
      // Different accounts (no account lock in play), one address, ten requests at once on two instances.
      const statuses = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          (i % 2 ? d : c).signIn(`per-ip-${i}@example.com`, "whatever-password-1", "192.0.2.200"),
        ).map(async (res) => (await res).statusCode),
      );
      expect(statuses.filter((s) => s === 401)).toHaveLength(4);
      expect(statuses.filter((s) => s === 429)).toHaveLength(6);
      // Another address has its own count, on either instance.
      expect((await d.signIn("per-ip-x@example.com", "whatever-password-1", "192.0.2.201")).statusCode).toBe(
        401,
      );
      const probe = new Redis(redisPort, "127.0.0.1");
      try {
        expect((await probe.keys(`${env.REDIS_KEY_PREFIX}ip:*`)).length).toBeGreaterThanOrEqual(2);
      } finally {
        probe.disconnect();
      }
    } finally {
      await c.app.close();
      await d.app.close();
    }
  });

  it("the per-person embed limit holds across both instances", async () => {
    const { email, password } = DEMO_CLIENTS[1];
    const cookies = [await a.sessionCookie(email, password), await b.sessionCookie(email, password)];
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) {
      const instance = i % 2 ? b : a;
      const res = await instance.app.inject({
        method: "POST",
        url: "/api/sigma/provision-and-embed",
        headers: { cookie: cookies[i % 2]!, origin: ORIGIN },
        payload: { workbookId: portfolio.workbookName },
      });
      statuses.push(res.statusCode);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 429, 429]);
  });

  it("keeps serving while Redis is down (caches off, limits in the database, /readyz degraded), and recovers", async () => {
    const cookie = await a.sessionCookie(olivia.email, olivia.password);
    expect((await me(b, cookie)).statusCode).toBe(200);
    await redis.stop();
    await waitFor(
      async () => (await b.app.inject({ method: "GET", url: "/readyz" })).json().status === "degraded",
    );
    expect((await b.app.inject({ method: "GET", url: "/readyz" })).statusCode).toBe(200);

    // Still serving, and a sign-out on one instance is refused at once on the other (no cache to trust).
    expect((await me(b, cookie)).statusCode).toBe(200);
    await a.app.inject({ method: "POST", url: "/api/auth/sign-out", headers: { cookie, origin: ORIGIN } });
    expect((await me(b, cookie)).statusCode).toBe(401);

    // The account lock falls back to the database.
    const { email, password } = await a.createUser("client");
    for (let i = 0; i < 10; i++) {
      const res = await (i % 2 ? b : a).signIn(email, `down-wrong-${i}`, `198.18.0.${i + 1}`);
      expect(res.statusCode).toBe(401);
    }
    expect((await b.signIn(email, password, "198.18.0.99")).statusCode).toBe(429);

    await redis.start();
    await waitFor(
      async () => (await b.app.inject({ method: "GET", url: "/readyz" })).json().status === "ready",
    );
    // Invalidations flow again.
    const again = cookieHeader(await a.signIn(olivia.email, olivia.password, "198.18.1.1"));
    expect((await me(b, again)).statusCode).toBe(200);
    await a.app.inject({
      method: "POST",
      url: "/api/auth/sign-out",
      headers: { cookie: again, origin: ORIGIN },
    });
    await waitFor(async () => (await me(b, again)).statusCode === 401, 1_000, "sign-out seen after recovery");
  }, 60_000);

  it("Redis stopped and started under load: no 5xx, and limits and revocation are right afterwards", async () => {
    const cookie = await a.sessionCookie(olivia.email, olivia.password);
    const statuses: number[] = [];
    let running = true;
    const load = (async () => {
      for (let i = 0; running; i++) {
        const instance = i % 2 ? b : a;
        statuses.push((await me(instance, cookie)).statusCode);
        const wrong = await instance.signIn(
          `load.${i % 5}@example.com`,
          "not-the-password-1",
          `192.0.2.${i % 200}`,
        );
        statuses.push(wrong.statusCode);
      }
    })();
    await new Promise((r) => setTimeout(r, 300));
    await redis.stop();
    await new Promise((r) => setTimeout(r, 1_500));
    await redis.start();
    await waitFor(
      async () =>
        (await b.app.inject({ method: "GET", url: "/readyz" })).json().status === "ready" &&
        (await a.app.inject({ method: "GET", url: "/readyz" })).json().status === "ready",
      15_000,
      "both ready again",
    );
    await new Promise((r) => setTimeout(r, 300));
    running = false;
    await load;
    expect(statuses.length).toBeGreaterThan(20);
    expect(statuses.filter((s) => s >= 500)).toEqual([]);
    expect(new Set(statuses.filter((s) => s !== 401 && s !== 429))).toEqual(new Set([200]));

    // After: the account lock counts across both instances again, and a sign-out is seen at once.
    const { email, password } = await a.createUser("client");
    for (let i = 0; i < 10; i++) {
      expect(
        (await (i % 2 ? b : a).signIn(email, `after-wrong-${i}`, `198.51.100.${i + 1}`)).statusCode,
      ).toBe(401);
    }
    expect((await b.signIn(email, password, "198.51.100.77")).statusCode).toBe(429);
    const again = cookieHeader(await a.signIn(olivia.email, olivia.password, "198.51.100.90"));
    expect((await me(b, again)).statusCode).toBe(200);
    await a.app.inject({
      method: "POST",
      url: "/api/auth/sign-out",
      headers: { cookie: again, origin: ORIGIN },
    });
    const signedOutAt = Date.now();
    await waitFor(async () => (await me(b, again)).statusCode === 401, 1_000, "sign-out seen");
    // Seen through the subscription that came back with Redis, not at the cache's 60 s expiry. The 100 ms
    // figure is the steady-state tests' above; here, straight after a restart and the load, a loaded CI
    // machine once took 105 ms, so this bound only tells the subscription from the expiry.
    expect(Date.now() - signedOutAt).toBeLessThan(1_000);
  }, 60_000);
});
