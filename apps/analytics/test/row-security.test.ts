import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../src/db/database.ts";
import { migrate } from "../src/db/migrations.ts";
import {
  DEFAULT_READER_ROLE,
  clientIdsFromAttributes,
  installRowSecurity,
  withClientScope,
} from "../src/db/row-security.ts";
import { generateDemoData } from "../src/demo/load.ts";
import { CLIENT_SCOPED_TABLES, REFERENCE_TABLES } from "../src/demo/schema.ts";
import { loadWorkbookDefinitions } from "../src/workbooks/catalog.ts";
import { runWorkbookPage } from "../src/workbooks/run.ts";
import { ZQuerySchema } from "../src/workbooks/schema.ts";
import { CLIENT_A, CLIENT_B, TEST_AS_OF, TEST_SEED, openTestDatabase } from "./helpers.ts";

const ROLE = DEFAULT_READER_ROLE;
const A = CLIENT_A!.clientId;
const B = CLIENT_B!.clientId;
let db: Database;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  ({ db, cleanup } = await openTestDatabase());
  await migrate(db);
  await installRowSecurity(db, ROLE);
  await generateDemoData(db, { size: { clients: 4 }, seed: TEST_SEED, asOf: TEST_AS_OF, readerRole: ROLE });
});
afterAll(async () => {
  await cleanup?.();
});

async function clientIdsPerTable(scope: string[]): Promise<Record<string, string[]>> {
  return withClientScope(db, ROLE, scope, async (q) => {
    const out: Record<string, string[]> = {};
    for (const table of CLIENT_SCOPED_TABLES) {
      const res = await q.query<{ client_id: string }>(
        `select distinct client_id from demo.${table} order by 1`,
      );
      out[table] = res.rows.map((r) => r.client_id);
    }
    return out;
  });
}

describe("row-level security on the demo data", () => {
  it("the owner sees every client; the reader with no client attribute sees no rows in any client table", async () => {
    const all = await db.query<{ n: number }>(
      "select count(distinct client_id)::int as n from demo.transactions",
    );
    expect(all.rows[0]?.n).toBe(4);
    const none = await clientIdsPerTable([]);
    for (const table of CLIENT_SCOPED_TABLES) expect(none[table], table).toEqual([]);
    expect(clientIdsFromAttributes({})).toEqual([]);
    expect(clientIdsFromAttributes(undefined)).toEqual([]);
    expect(clientIdsFromAttributes({ client_id: " " })).toEqual([]);
  });

  it("a client sees only their own rows; an employee exactly their clients", async () => {
    const onlyA = await clientIdsPerTable(clientIdsFromAttributes({ client_id: A }));
    for (const table of CLIENT_SCOPED_TABLES) expect(onlyA[table], table).toEqual([A]);
    const employee = await clientIdsPerTable(clientIdsFromAttributes({ client_ids: `${A}, ${B}` }));
    for (const table of CLIENT_SCOPED_TABLES) expect(employee[table], table).toEqual([A, B]);
  });

  it("the reader cannot read the server's tables, write the context, or widen its scope from SQL", async () => {
    await expect(
      withClientScope(db, ROLE, [A], (q) => q.query("select * from analytics.members")),
    ).rejects.toThrow(/permission denied/);
    await expect(
      withClientScope(db, ROLE, [A], (q) =>
        q.query(
          "insert into rls.request_context (txid, client_ids) values (txid_current(), array['CL-1002'])",
        ),
      ),
    ).rejects.toThrow(/permission denied|read-only/);
    await expect(
      withClientScope(db, ROLE, [A], (q) => q.query("update demo.transactions set amount = 0")),
    ).rejects.toThrow(/permission denied|read-only/);
    // A forged setting changes nothing: the scope comes from the context row only.
    const forged = await withClientScope(db, ROLE, [A], async (q) => {
      await q.exec("set local app.client_ids = 'CL-1002'");
      return q.query<{ ids: string[] }>("select array_agg(distinct client_id) as ids from demo.transactions");
    });
    expect(forged.rows[0]?.ids).toEqual([A]);
    // The reader may not call set_config, so no statement can switch back to the connection's own role...
    await expect(
      withClientScope(db, ROLE, [A], (q) =>
        q.query("select set_config('role', current_setting('session_authorization'), true)"),
      ),
    ).rejects.toThrow(/permission denied for function set_config/);
    // ...and a role left behind by one statement is reset before the next one.
    const after = await withClientScope(db, ROLE, [A], async (q) => {
      await q.exec("reset role");
      return q.query<{ ids: string[]; who: string }>(
        "select array_agg(distinct client_id) as ids, current_user::text as who from demo.transactions",
      );
    });
    expect(after.rows[0]).toEqual({ ids: [A], who: ROLE });
  });

  it("every demo table is either client-scoped with a policy or listed as reference data; nothing runs with owner rights", async () => {
    const tables = await db.query<{
      relname: string;
      relrowsecurity: boolean;
      policies: number;
      has_client: boolean;
    }>(
      `select c.relname, c.relrowsecurity,
              (select count(*)::int from pg_policy p where p.polrelid = c.oid) as policies,
              exists (select 1 from pg_attribute a where a.attrelid = c.oid and a.attname = 'client_id' and not a.attisdropped) as has_client
         from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = 'demo' and c.relkind in ('r', 'p', 'v', 'm')`,
    );
    const names = tables.rows.map((r) => r.relname).sort();
    expect(names).toEqual([...CLIENT_SCOPED_TABLES, ...REFERENCE_TABLES].sort());
    for (const r of tables.rows) {
      if ((CLIENT_SCOPED_TABLES as readonly string[]).includes(r.relname)) {
        expect(r.relrowsecurity && r.policies > 0 && r.has_client, r.relname).toBe(true);
      } else {
        expect(r.has_client, `${r.relname} holds client rows but has no policy`).toBe(false);
      }
    }
    const definers = await db.query(
      `select p.proname from pg_proc p join pg_namespace n on n.oid = p.pronamespace where n.nspname = 'demo' and p.prosecdef`,
    );
    expect(definers.rows).toEqual([]);
    const role = await db.query<{ rolsuper: boolean; rolbypassrls: boolean; rolcanlogin: boolean }>(
      "select rolsuper, rolbypassrls, rolcanlogin from pg_roles where rolname = $1",
      [ROLE],
    );
    expect(role.rows[0]).toEqual({ rolsuper: false, rolbypassrls: false, rolcanlogin: false });
  });

  it("runs every demo workbook fail-closed: without a client attribute no figure of any client appears", async () => {
    const workbooks = await loadWorkbookDefinitions();
    for (const wb of workbooks.values()) {
      const result = await runWorkbookPage(db, ROLE, [], wb, undefined, {}, (e) => {
        throw e;
      });
      for (const c of result.controls.filter((c) => c.type === "client-select"))
        expect(c.options).toEqual([]);
      for (const [id, el] of Object.entries(result.elements)) {
        expect(el.error, `${wb.name}/${id}`).toBeUndefined();
        for (const row of el.rows) {
          for (const [k, v] of Object.entries(row)) {
            // Only neutral values survive: zero amounts, the base 100 of a growth chart, targets and labels.
            if (typeof v === "number" && !["portfolio", "target"].includes(k))
              expect(v, `${wb.name}/${id}.${k}`).toBe(0);
          }
        }
      }
    }
  });
});

describe("workbook SQL", () => {
  it("accepts one bound SELECT and rejects anything that could write, switch roles or splice", () => {
    expect(
      ZQuerySchema.safeParse({
        sql: "select 1 from demo.clients where client_id = :c",
        params: { c: "Client" },
      }).success,
    ).toBe(true);
    const bad = [
      { sql: "select 1; delete from demo.clients", params: {} },
      { sql: "select set_config('role', 'postgres', false)", params: {} },
      { sql: "with x as (delete from demo.clients returning *) select * from x", params: {} },
      { sql: "select * from rls.request_context", params: {} },
      { sql: "select * from analytics.members", params: {} },
      { sql: "update demo.clients set email = ''", params: {} },
      { sql: "select * from demo.clients where client_id = :c", params: {} },
      { sql: "select 1", params: { c: "Client" } },
    ];
    for (const q of bad) expect(ZQuerySchema.safeParse(q).success, q.sql).toBe(false);
  });
});
