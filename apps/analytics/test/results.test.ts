import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../src/db/database.ts";
import { migrate } from "../src/db/migrations.ts";
import { DEFAULT_READER_ROLE, installRowSecurity } from "../src/db/row-security.ts";
import { generateDemoData } from "../src/demo/load.ts";
import { ensurePortalClients } from "../src/demo/portal-clients.ts";
import { loadWorkbookDefinitions } from "../src/workbooks/catalog.ts";
import { PageResults, type PageRequest } from "../src/workbooks/results.ts";
import type { TWorkbook } from "../src/workbooks/schema.ts";
import { CLIENT_A, CLIENT_B, TEST_AS_OF, TEST_SEED, openTestDatabase } from "./helpers.ts";

const ROLE = DEFAULT_READER_ROLE;
const A = CLIENT_A!.clientId;
const B = CLIENT_B!.clientId;
let db: Database;
let cleanup: () => Promise<void>;
let portfolio: TWorkbook;
/** Computations so far: each runs the page in one client-scoped transaction. */
let computed = 0;
const errors: string[] = [];

beforeAll(async () => {
  ({ db, cleanup } = await openTestDatabase());
  await migrate(db);
  await installRowSecurity(db, ROLE);
  await generateDemoData(db, { size: { clients: 4 }, seed: TEST_SEED, asOf: TEST_AS_OF, readerRole: ROLE });
  portfolio = [...(await loadWorkbookDefinitions()).values()].find((w) => w.name === "Portfolio Overview")!;
});
afterAll(async () => {
  await cleanup?.();
});

/** The real database, counting the transactions the cache opens. */
function counting(target: Database): Database {
  return new Proxy(target, {
    get(object, property, receiver) {
      if (property === "transaction") {
        return (...args: Parameters<Database["transaction"]>) => {
          computed += 1;
          return object.transaction(...args);
        };
      }
      const value = Reflect.get(object, property, receiver) as unknown;
      return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(object) : value;
    },
  });
}

const cache = (ttlMs = 60_000, maxBytes?: number) =>
  new PageResults(counting(db), ROLE, (_error, id) => errors.push(id), { ttlMs, maxBytes });
const request = (over: Partial<PageRequest> = {}): PageRequest => ({
  clientIds: [A],
  workbook: portfolio,
  pageId: undefined,
  variables: {},
  ...over,
});
const total = (r: { elements: Record<string, { rows: Record<string, unknown>[] }> }) =>
  r.elements["total-value"]?.rows[0]?.value;

describe("a workbook page's results, kept between requests", () => {
  it("computes the same page, scope and values once; another scope, other values or other elements anew", async () => {
    const results = cache();
    const before = computed;
    const first = await results.get(request());
    expect(computed - before).toBe(1);
    expect(await results.get(request({ clientIds: [A] }))).toBe(first);
    expect(computed - before).toBe(1);

    const other = await results.get(request({ clientIds: [B] }));
    expect(computed - before).toBe(2);
    expect(total(other)).not.toBe(total(first));
    await results.get(request({ variables: { Period: "1y" } }));
    await results.get(request({ only: new Set(["growth"]) }));
    expect(computed - before).toBe(4);
    // The order of the scope's ids and of the values does not make another entry.
    await results.get(request({ clientIds: [B, A], variables: { Period: "1y", Account: "all" } }));
    await results.get(request({ clientIds: [A, B], variables: { Account: "all", Period: "1y" } }));
    expect(computed - before).toBe(5);
    // Values of no control of the workbook change nothing and make no entry.
    expect(await results.get(request({ variables: { Nonsense: "x", "Period ": "1y" } }))).toBe(first);
    expect(computed - before).toBe(5);
    expect(results.size).toBe(5);
  });

  it("never answers one client's request with another's figures or name", async () => {
    const results = cache();
    const a = await results.get(request({ clientIds: [A] }));
    const b = await results.get(request({ clientIds: [B] }));
    const label = (r: typeof a) => r.controls.find((c) => c.id === "Client")?.options.map((o) => o.label);
    expect(label(a)).toEqual([expect.stringContaining(`(${A})`)]);
    expect(label(b)).toEqual([expect.stringContaining(`(${B})`)]);
    expect(JSON.stringify(b)).not.toContain(A);
    // The rows of an empty scope are empty, cached or not.
    const none = await results.get(request({ clientIds: [] }));
    expect(none.elements["holdings"]?.rows).toEqual([]);
    expect((await results.get(request({ clientIds: [] }))).elements["holdings"]?.rows).toEqual([]);
  });

  it("shows a client the portal renames under the new name at once", async () => {
    const results = cache();
    const names = async () =>
      (await results.get(request({ clientIds: [A, B] }))).controls
        .find((c) => c.id === "Client")
        ?.options.map((o) => o.label);
    expect(await names()).not.toContainEqual(`Priya Castellanos (${A})`);
    const before = computed;
    await ensurePortalClients(db, [{ clientId: A, firstName: "Priya", lastName: "Castellanos" }]);
    expect(await names()).toContainEqual(`Priya Castellanos (${A})`);
    expect(computed - before).toBe(1);
    // The same names again change nothing, and the page is answered from memory.
    await ensurePortalClients(db, [{ clientId: A, firstName: "Priya", lastName: "Castellanos" }]);
    expect(await names()).toContainEqual(`Priya Castellanos (${A})`);
    expect(computed - before).toBe(1);
  });

  it("shares one computation between requests at the same time", async () => {
    const results = cache();
    const before = computed;
    const answers = await Promise.all([1, 2, 3].map(() => results.get(request({ clientIds: [B] }))));
    expect(computed - before).toBe(1);
    expect(answers[1]).toBe(answers[0]);
    expect(answers[2]).toBe(answers[0]);
  });

  it("answers every request when there is no room to keep a page, or room for only one", async () => {
    const tiny = cache(60_000, 10);
    const before = computed;
    const alone = await tiny.get(request());
    expect(total(alone)).toEqual(expect.any(Number));
    expect(tiny.size).toBe(0);
    expect(computed - before).toBe(1);
    // Room for one page: three scopes at once push each other out while they are computed.
    const one = cache(60_000, JSON.stringify(alone).length * 3);
    const answers = await Promise.all([[A], [B], [A, B]].map((clientIds) => one.get(request({ clientIds }))));
    expect(answers.map(total)).toEqual([total(alone), expect.any(Number), expect.any(Number)]);
    expect(one.size).toBe(1);
  });

  it("hands out results nobody can change", async () => {
    const results = cache();
    const r = await results.get(request());
    expect(() => {
      (r.elements["total-value"]!.rows[0] as Record<string, unknown>).value = 1;
    }).toThrow(TypeError);
    expect(() => r.controls.push(r.controls[0]!)).toThrow(TypeError);
  });

  it("does not keep a page with a failed element, and keeps nothing when turned off", async () => {
    const broken: TWorkbook = {
      ...portfolio,
      urlId: "brokenWorkbookId0000000",
      pages: portfolio.pages.map((p, i) =>
        i === 0
          ? {
              ...p,
              elements: p.elements.map((e) =>
                e.id === "growth" ? { ...e, query: { sql: "select 1 / 0 as x", params: {} } } : e,
              ),
            }
          : p,
      ),
    };
    const results = cache();
    const before = computed;
    const first = await results.get(request({ workbook: broken }));
    expect(first.elements["growth"]?.error).toBe("This element could not be loaded.");
    expect(errors).toContain("growth");
    await results.get(request({ workbook: broken }));
    expect(computed - before).toBe(2);
    expect(results.size).toBe(0);

    const off = cache(0);
    await off.get(request());
    await off.get(request());
    expect(computed - before).toBe(4);
    expect(off.size).toBe(0);
  });
});
