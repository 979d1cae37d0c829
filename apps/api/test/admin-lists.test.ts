import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEmbedder } from "../src/sigma/embedder.ts";
import { buildApp } from "../src/app.ts";
import type { DatabaseHandle } from "../src/db/client.ts";
import { createTestApp, headersFor } from "./support/app.ts";
import { createTestDatabase } from "./support/database.ts";

let database: DatabaseHandle;
let t: Awaited<ReturnType<typeof createTestApp>>;
let admin: Record<string, string>;

/** Bulk-inserts clients straight into the tables (the API path is tested elsewhere). */
async function seedClients(from: number, count: number) {
  await database.db.execute(sql`
    insert into users (id, name, email, email_verified, role)
    select 'u-' || i, 'Person ' || i, 'person' || i || '@example.com', true, 'client'
    from generate_series(${from}::int, ${from + count - 1}::int) i`);
  await database.db.execute(sql`
    insert into clients (client_id, first_name, last_name, email, privilege, user_id)
    select 'CL-' || lpad(i::text, 5, '0'), (array['Ann','Bob','Cy','Dee'])[1 + i % 4], 'Last' || lpad(i::text, 5, '0'),
           'person' || i || '@example.com', 'View', 'u-' || i
    from generate_series(${from}::int, ${from + count - 1}::int) i`);
}

beforeAll(async () => {
  database = await createTestDatabase();
  t = await createTestApp(database, { AUTH_IP_LIMIT_PER_MINUTE: "10000" });
  admin = await headersFor(t, "admin");
  await seedClients(1, 120);
});
afterAll(async () => {
  await t.app.close();
  await database.close();
});

const get = (url: string) => t.app.inject({ method: "GET", url, headers: admin });

describe("client list paging, search and sort", () => {
  it("answers the spec's array body, 50 per page by default, with X-Total-Count and a Link to the next page", async () => {
    const res = await get("/api/admin/clients");
    expect(res.statusCode).toBe(200);
    const body = res.json() as { client_id: string; last_name: string }[];
    expect(Array.isArray(body)).toBe(true);
    expect(body).toHaveLength(50);
    expect(body[0]!.last_name).toBe("Last00001");
    expect(res.headers["x-total-count"]).toBe("120");
    expect(res.headers.link).toBe('</api/admin/clients?limit=50&offset=50>; rel="next"');
  });

  it("pages with limit and offset and links both ways", async () => {
    const res = await get("/api/admin/clients?limit=20&offset=100&sort=-client_id");
    const body = res.json() as { client_id: string }[];
    expect(body.map((c) => c.client_id)).toEqual(
      Array.from({ length: 20 }, (_, i) => `CL-${String(20 - i).padStart(5, "0")}`),
    );
    expect(res.headers.link).toBe('</api/admin/clients?limit=20&offset=80&sort=-client_id>; rel="prev"');
    const beyond = await get("/api/admin/clients?offset=500");
    expect(beyond.json()).toEqual([]);
    expect(beyond.headers["x-total-count"]).toBe("120");
  });

  it("searches the start of id, names and email, word by word, case-insensitively, with LIKE characters taken literally", async () => {
    const byId = await get("/api/admin/clients?q=cl-0001");
    expect(byId.headers["x-total-count"]).toBe("10"); // CL-00010 … CL-00019
    const byEmail = await get("/api/admin/clients?q=PERSON7%40example");
    expect((byEmail.json() as { email: string }[]).map((c) => c.email)).toEqual(["person7@example.com"]);
    const byFirst = await get("/api/admin/clients?q=dee&limit=5");
    expect(byFirst.headers["x-total-count"]).toBe("30");
    const twoWords = await get("/api/admin/clients?q=ann%20LAST0000");
    expect((twoWords.json() as { client_id: string }[]).map((c) => c.client_id)).toEqual([
      "CL-00004",
      "CL-00008",
    ]);
    const middle = await get("/api/admin/clients?q=00042");
    expect(middle.json()).toEqual([]); // a prefix search: the middle of an id does not match
    const wildcard = await get("/api/admin/clients?q=%25");
    expect(wildcard.json()).toEqual([]);
    expect(wildcard.headers["x-total-count"]).toBe("0");
  });

  it("refuses an unknown sort or an out-of-range limit with a readable 400", async () => {
    const sort = await get("/api/admin/clients?sort=password");
    expect(sort.statusCode).toBe(400);
    expect(sort.json().error).toMatch(/^sort must be one of client_id, -client_id/);
    const limit = await get("/api/admin/clients?limit=100000");
    expect(limit.json().error).toBe("limit must be at most 500.");
  });

  it("keeps the total right as clients come and go (row counter triggers)", async () => {
    await seedClients(1000, 5);
    expect((await get("/api/admin/clients")).headers["x-total-count"]).toBe("125");
    await database.db.execute(sql`delete from clients where client_id like 'CL-010%'`);
    expect((await get("/api/admin/clients")).headers["x-total-count"]).toBe("120");
  });
});

describe("one query per list", () => {
  it("runs the same number of SQL statements for 5 rows as for 100 (no query per row)", async () => {
    const statements: string[] = [];
    const counting: DatabaseHandle = {
      ...database,
      db: new Proxy(database.db, {
        get(target, prop, receiver) {
          const value = Reflect.get(target, prop, receiver);
          if (prop === "execute" || prop === "select") {
            return (...args: unknown[]) => {
              statements.push(String(prop));
              return (value as (...a: unknown[]) => unknown).apply(target, args);
            };
          }
          return value;
        },
      }),
    };
    const { app } = await buildApp({
      config: t.config,
      database: counting,
      logger: false,
      embedder: createEmbedder(t.config),
    });
    try {
      const a = await t.createUser("admin");
      const jwt = await t.jwtFor(await t.readyCookie(a.email, a.password, "admin"));
      const run = async (limit: number) => {
        statements.length = 0;
        const res = await app.inject({
          method: "GET",
          url: `/api/admin/clients?limit=${limit}`,
          headers: { authorization: `Bearer ${jwt}` },
        });
        expect(res.json()).toHaveLength(limit);
        return statements.length;
      };
      await run(1); // warm-up: the first bearer request also loads the signing keys
      const small = await run(5);
      const large = await run(100);
      expect(large).toBe(small);
      expect(small).toBeLessThanOrEqual(2); // the bearer session check and the list itself
    } finally {
      await app.close();
    }
  });
});
