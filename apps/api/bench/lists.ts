/**
 * npm run bench:lists — the admin client list at 1k, 100k and 1M clients on the real PostgreSQL.
 * Prints p50/p95 of the first page and of a search through the API (app.inject, admin bearer JWT),
 * next to the same SQL run directly through the driver in the same run.
 * Target: API p95 < 30 ms, and ≤ 1.5× growth from 1k to 1M.
 * Then the audit log (/admin/audit) at 1k, 100k and 1M audit rows, every filter: target API p95 < 50 ms.
 * BENCH_LISTS=audit (or clients) runs one of the two.
 */
import { ZClientListQuerySchema } from "@portal/contracts";
import { PgDialect } from "drizzle-orm/pg-core";
import pg from "pg";
import { clientKind } from "../src/people/kinds.ts";
import { personListQuery } from "../src/people/lists.ts";
import { buildApp } from "../src/app.ts";
import { ensureUser } from "../src/accounts/accounts.ts";
import { loadConfig } from "../src/config.ts";
import { fromPostgres } from "../src/db/client.ts";
import { BENCH_SERVER, serverAdmin } from "./server-admin.ts";
import { auditCaseSql, auditCases, seedAudit } from "./audit-list.ts";
import { currentAuditChainKey, verifyAuditChain } from "../src/audit/chain.ts";

const SIZES = (process.env.BENCH_SIZES ?? "1000,100000,1000000").split(",").map(Number);
const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 200);
const DB_NAME = "portal_bench_lists";
const LISTS = (process.env.BENCH_LISTS ?? "clients,audit").split(",");

const dbUrl = new URL(BENCH_SERVER);
dbUrl.pathname = `/${DB_NAME}`;

const percentile = (xs: number[], p: number) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
};

async function time(fn: () => Promise<unknown>): Promise<{ p50: number; p95: number }> {
  for (let i = 0; i < 10; i++) await fn(); // warm-up
  const samples: number[] = [];
  for (let i = 0; i < ITERATIONS; i++) {
    const start = performance.now();
    await fn();
    samples.push(performance.now() - start);
  }
  return { p50: percentile(samples, 50), p95: percentile(samples, 95) };
}

async function seed(pool: pg.Pool, size: number) {
  const employeesCount = Math.max(1, Math.floor(size / 100));
  await pool.query(
    "truncate client_workbooks, employee_clients, clients, employees, workbooks restart identity cascade",
  );
  await pool.query("delete from users where id like 'bench-%'");
  await pool.query(`insert into workbooks (workbook_name, team_name)
    select 'Workbook-' || i || '-AAAAAAAAAAAAAAAAAAAAAA', 'Team ' || i from generate_series(1, 10) i`);
  await pool.query(
    `insert into users (id, name, email, email_verified, role)
    select 'bench-c' || i, 'Client ' || i, 'client' || i || '@example.com', true, 'client' from generate_series(1, $1::int) i`,
    [size],
  );
  await pool.query(
    `insert into clients (client_id, first_name, last_name, email, privilege, user_id)
    select 'CL-' || lpad(i::text, 7, '0'),
           (array['Olivia','Marcus','Priya','James','Sofia','Liam','Ava','Noah'])[1 + i % 8],
           (array['Bennett','Chen','Raman','Smith','Garcia','Müller','Okafor','Tanaka'])[1 + (i / 8) % 8] || (i % 997),
           'client' || i || '@example.com', (array['Build','Analyze','Act','View'])[1 + i % 4]::privilege, 'bench-c' || i
    from generate_series(1, $1::int) i`,
    [size],
  );
  await pool.query(`insert into client_workbooks (c_id, workbook_id)
    select c_id, 1 + c_id % 10 from clients union all select c_id, 1 + (c_id + 3) % 10 from clients`);
  await pool.query(
    `insert into users (id, name, email, email_verified, role)
    select 'bench-e' || i, 'Employee ' || i, 'employee' || i || '@example.com', true, 'employee' from generate_series(1, $1::int) i`,
    [employeesCount],
  );
  await pool.query(
    `insert into employees (employee_id, first_name, last_name, email, privilege, user_id)
    select 'EM-' || lpad(i::text, 6, '0'), 'Emp', 'Loyee' || i, 'employee' || i || '@example.com', 'Act', 'bench-e' || i
    from generate_series(1, $1::int) i`,
    [employeesCount],
  );
  await pool.query(
    `insert into employee_clients (e_id, c_id) select 1 + (c_id % $1::int), c_id from clients`,
    [employeesCount],
  );
  // Settle the new rows (visibility map, statistics) so autovacuum does not run during the measurement.
  await pool.query("vacuum analyze");
}

async function main() {
  await serverAdmin(`drop database if exists ${DB_NAME} with (force)`);
  await serverAdmin(`create database ${DB_NAME}`);
  const database = fromPostgres(dbUrl.toString());
  await database.migrate();
  const config = loadConfig({
    DATA_DIR: "./data/bench",
    DATABASE_URL: dbUrl.toString(),
    BETTER_AUTH_SECRET: "bench-secret-bench-secret-bench-secret-0123",
    PUBLIC_URL: "http://127.0.0.1:3999",
    LOG_LEVEL: "silent",
    AUTH_IP_LIMIT_PER_MINUTE: "100000",
    // This measures the list, not sign-in: the bench admin gets its JWT without a second step.
    MFA_REQUIRED_ROLES: "",
  });
  const { app } = await buildApp({ config, database, logger: false });
  await ensureUser(database.db, {
    email: "bench.admin@example.com",
    password: "quartz-ledger-harbour-91",
    name: "Bench",
    role: "admin",
    resetExisting: true,
  });
  const signIn = await app.inject({
    method: "POST",
    url: "/api/auth/sign-in/email",
    headers: { origin: config.publicUrl },
    payload: { email: "bench.admin@example.com", password: "quartz-ledger-harbour-91" },
  });
  const cookie = String(signIn.headers["set-cookie"]).split(";")[0]!;
  const jwt = (await app.inject({ method: "GET", url: "/api/auth/token", headers: { cookie } })).json()
    .token as string;
  const headers = { authorization: `Bearer ${jwt}` };
  const pool = new pg.Pool({ connectionString: dbUrl.toString(), max: 2 });
  const dialect = new PgDialect();

  const results: string[] = [];
  const firstPages: number[] = [];
  for (const size of LISTS.includes("clients") ? SIZES : []) {
    const seedStart = performance.now();
    await seed(pool, size);
    console.log(
      `seeded ${size.toLocaleString("en-US")} clients in ${((performance.now() - seedStart) / 1000).toFixed(1)} s`,
    );
    const cases = [
      { label: "first page", url: "/api/admin/clients", query: {} },
      { label: "search", url: "/api/admin/clients?q=client777%40", query: { q: "client777@" } },
      { label: "name", url: "/api/admin/clients?q=priya%20raman42", query: { q: "priya raman42" } },
    ];
    for (const c of cases) {
      const res = await app.inject({ method: "GET", url: c.url, headers });
      if (res.statusCode !== 200) throw new Error(`${c.url}: ${res.statusCode} ${res.body}`);
      const api = await time(() => app.inject({ method: "GET", url: c.url, headers }));
      const compiled = dialect.sqlToQuery(
        personListQuery(clientKind, ZClientListQuerySchema.parse(c.query)).statement,
      );
      const direct = await time(() => pool.query(compiled.sql, compiled.params));
      if (c.label === "first page") firstPages.push(api.p95);
      results.push(
        `${size.toLocaleString("en-US").padStart(10)}  ${c.label.padEnd(10)}  API p50 ${api.p50.toFixed(2).padStart(6)} ms  p95 ${api.p95.toFixed(2).padStart(6)} ms   ` +
          `SQL via driver p50 ${direct.p50.toFixed(2).padStart(6)} ms  p95 ${direct.p95.toFixed(2).padStart(6)} ms   rows ${res.json().length}, total ${res.headers["x-total-count"]}`,
      );
      console.log(results.at(-1));
    }
  }
  if (results.length > 0)
    console.log("\nclients     list        through the API (incl. auth)        same SQL directly");
  for (const line of results) console.log(line);
  if (firstPages.length > 1) {
    const growth = firstPages.at(-1)! / firstPages[0]!;
    console.log(
      `first-page p95 growth ${SIZES[0]!.toLocaleString("en-US")} → ${SIZES.at(-1)!.toLocaleString("en-US")}: ${growth.toFixed(2)}× (target ≤ 1.5×)`,
    );
  }
  const auditResults: string[] = [];
  let auditRows = 0;
  for (const size of LISTS.includes("audit") ? SIZES : []) {
    const seedStart = performance.now();
    await seedAudit(database.db, pool, auditRows, size);
    auditRows = size;
    console.log(
      `audit trail grown to ${size.toLocaleString("en-US")} rows in ${((performance.now() - seedStart) / 1000).toFixed(1)} s`,
    );
    // The chain check the screen shows: what its first (uncached) answer costs, a walk of the whole trail.
    const verifyStart = performance.now();
    const verified = await verifyAuditChain(database.db, currentAuditChainKey());
    auditResults.push(
      `${size.toLocaleString("en-US").padStart(10)}  chain check (uncached, whole trail): ${((performance.now() - verifyStart) / 1000).toFixed(2)} s, ${verified.rowsChecked.toLocaleString("en-US")} rows, ok ${String(verified.ok)}`,
    );
    console.log(auditResults.at(-1));
    for (const c of await auditCases(pool)) {
      const res = await app.inject({ method: "GET", url: c.url, headers });
      if (res.statusCode !== 200) throw new Error(`${c.url}: ${res.statusCode} ${res.body}`);
      const api = await time(() => app.inject({ method: "GET", url: c.url, headers }));
      const compiled = await auditCaseSql(database.db, c.query);
      const direct = await time(() => pool.query(compiled.sql, compiled.params));
      auditResults.push(
        `${size.toLocaleString("en-US").padStart(10)}  ${c.label.padEnd(16)}  API p50 ${api.p50.toFixed(2).padStart(6)} ms  p95 ${api.p95.toFixed(2).padStart(6)} ms   ` +
          `SQL via driver p50 ${direct.p50.toFixed(2).padStart(6)} ms  p95 ${direct.p95.toFixed(2).padStart(6)} ms   rows ${res.json().length}, total ${res.headers["x-total-count"]}${res.headers["x-total-count-capped"] ? "+" : ""}`,
      );
      console.log(auditResults.at(-1));
    }
  }
  if (auditResults.length > 0) {
    console.log(
      "\naudit rows  list              through the API (incl. auth)        same page SQL directly (target API p95 < 50 ms)",
    );
    for (const line of auditResults) console.log(line);
  }
  await pool.end();
  await app.close();
  await database.close();
  await serverAdmin(`drop database if exists ${DB_NAME} with (force)`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
