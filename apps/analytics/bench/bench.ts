/**
 * npm run bench:analytics — element query latency for one client and the time from iframe navigation to
 * `workbook:dataloaded` in Chromium, on PostgreSQL with about 10 million demo transactions.
 *
 * Uses BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres) to create the database
 * `analytics_bench` and fills it once; later runs reuse it (BENCH_REGENERATE=1 rebuilds it). Stops by
 * itself; BENCH_TIMEOUT_SECONDS (default 1500) bounds the whole run.
 * Knobs: BENCH_TRANSACTIONS (10000000), BENCH_ITERATIONS (40), BENCH_NAVIGATIONS (12), BENCH_DROP=1.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { DEMO_CLIENTS, DEMO_WORKBOOKS } from "@portal/contracts/demo";
import { mintEmbedUrl } from "@portal/sigma";
import { openDatabase, type Database } from "../src/db/database.ts";
import { migrate } from "../src/db/migrations.ts";
import { DEFAULT_READER_ROLE, installRowSecurity } from "../src/db/row-security.ts";
import { DEFAULT_DEMO_SEED, GENERATOR_VERSION, generateDemoData, readDemoMeta } from "../src/demo/load.ts";
import { buildAnalyticsFrontEnd } from "../src/frontend.ts";
import { startAnalyticsServer } from "../src/server.ts";
import { loadWorkbookDefinitions } from "../src/workbooks/catalog.ts";
import { runWorkbookPage } from "../src/workbooks/run.ts";
import { HostPage, launchChromium, sinceNavigation, waitForEvent } from "../test/browser-harness.ts";

const env = process.env;
const ADMIN_URL = env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const DB_NAME = "analytics_bench";
const TRANSACTIONS = Number(env.BENCH_TRANSACTIONS ?? 10_000_000);
const ITERATIONS = Number(env.BENCH_ITERATIONS ?? 40);
const NAVIGATIONS = Number(env.BENCH_NAVIGATIONS ?? 12);
const TIMEOUT_SECONDS = Number(env.BENCH_TIMEOUT_SECONDS ?? 1500);
const AS_OF = env.BENCH_AS_OF ?? "2026-11-20";
const ROLE = DEFAULT_READER_ROLE;
const CLIENT = DEMO_CLIENTS[0];
const SIZE = { transactions: TRANSACTIONS };

const timer = setTimeout(() => {
  console.error(`bench: exceeded BENCH_TIMEOUT_SECONDS=${TIMEOUT_SECONDS}; stopping`);
  process.exit(2);
}, TIMEOUT_SECONDS * 1000);
timer.unref();

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i] as number;
}

const fmt = (ms: number) => `${ms.toFixed(1).padStart(7)} ms`;

async function ensureDatabase(): Promise<string> {
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  const exists = await admin.query("select 1 from pg_database where datname = $1", [DB_NAME]);
  if (exists.rows.length === 0) await admin.query(`create database ${DB_NAME}`);
  await admin.end();
  const url = new URL(ADMIN_URL);
  url.pathname = `/${DB_NAME}`;
  return url.toString();
}

async function main() {
  const started = Date.now();
  const url = await ensureDatabase();
  const db = await openDatabase({ url, poolSize: 4 });
  try {
    await prepareData(db);
    await benchElementQueries(db);
    await benchNavigations(db);
  } finally {
    await db.close();
  }
  if (env.BENCH_DROP === "1") {
    const admin = new pg.Client({ connectionString: ADMIN_URL });
    await admin.connect();
    await admin.query(`drop database if exists ${DB_NAME} with (force)`);
    await admin.end();
    console.log(`bench: dropped ${DB_NAME}`);
  }
  console.log(`\nbench: done in ${((Date.now() - started) / 1000).toFixed(0)} s`);
}

/** Migrates the database and fills it with the demo data, unless it holds this size, seed and version. */
async function prepareData(db: Database) {
  await migrate(db);
  await installRowSecurity(db, ROLE);
  const meta = await readDemoMeta(db);
  const fresh =
    !meta ||
    env.BENCH_REGENERATE === "1" ||
    meta.size !== JSON.stringify(SIZE) ||
    meta.asOf !== AS_OF ||
    meta.seed !== DEFAULT_DEMO_SEED ||
    meta.generatorVersion !== GENERATOR_VERSION;
  if (fresh) {
    console.log(
      `bench: generating about ${TRANSACTIONS.toLocaleString("en-US")} transactions into ${DB_NAME}…`,
    );
    const t = Date.now();
    await generateDemoData(db, {
      size: SIZE,
      seed: DEFAULT_DEMO_SEED,
      asOf: AS_OF,
      readerRole: ROLE,
      log: (m) => console.log(`  ${m}`),
    });
    console.log(`bench: data generated in ${((Date.now() - t) / 1000).toFixed(0)} s`);
  }
  const counts = await db.query<{ tx: number; clients: number; lots: number; size: string }>(
    `select (select count(*) from demo.transactions) as tx, (select count(*) from demo.clients) as clients,
              (select count(*) from demo.tax_lots) as lots, pg_size_pretty(pg_database_size(current_database())) as size`,
  );
  const c = counts.rows[0]!;
  const own = await db.query<{ n: number }>(
    "select count(*) as n from demo.transactions where client_id = $1",
    [CLIENT.clientId],
  );
  console.log(
    `bench: ${c.tx.toLocaleString("en-US")} transactions, ${c.clients.toLocaleString("en-US")} clients, ${c.lots.toLocaleString("en-US")} tax lots, database ${c.size}; ` +
      `client ${CLIENT.clientId} has ${own.rows[0]!.n} transactions`,
  );
}

/** 1. Element queries for one client, as the server runs them (row security, read-only reader role). */
async function benchElementQueries(db: Database) {
  const workbooks = await loadWorkbookDefinitions();
  console.log(
    `\nElement queries for ${CLIENT.clientId} (${ITERATIONS} runs each after 3 warm-up runs; row security on)`,
  );
  let worstP95 = 0;
  for (const wb of workbooks.values()) {
    const timings = new Map<string, number[]>();
    const pages: number[] = [];
    for (let i = 0; i < ITERATIONS + 3; i++) {
      const t = performance.now();
      await runWorkbookPage(
        db,
        ROLE,
        [CLIENT.clientId],
        wb,
        undefined,
        {},
        (e, id) => {
          throw new Error(`${wb.name}/${id}: ${String(e)}`);
        },
        (id, ms) => {
          if (i >= 3) timings.set(id, [...(timings.get(id) ?? []), ms]);
        },
      );
      if (i >= 3) pages.push(performance.now() - t);
    }
    console.log(`\n  ${wb.name}`);
    console.log(`    ${"element".padEnd(26)}      p50        p95`);
    for (const [id, ms] of timings) {
      const p95 = percentile(ms, 95);
      worstP95 = Math.max(worstP95, p95);
      console.log(
        `    ${id.padEnd(26)} ${fmt(percentile(ms, 50))} ${fmt(p95)}${p95 > 50 ? "  over the 50 ms target" : ""}`,
      );
    }
    console.log(
      `    ${"whole page (one request)".padEnd(26)} ${fmt(percentile(pages, 50))} ${fmt(percentile(pages, 95))}`,
    );
  }
  console.log(`\n  slowest element p95: ${worstP95.toFixed(1)} ms (target < 50 ms)`);
}

/** 2. Chromium: iframe navigation to workbook:dataloaded, against the real server on this database. */
async function benchNavigations(db: Database) {
  await buildAnalyticsFrontEnd({ quiet: true });
  const host = await HostPage.start();
  const dataDir = await mkdtemp(path.join(tmpdir(), "analytics-bench-"));
  const server = await startAnalyticsServer({
    database: db,
    logger: false,
    buildFrontEnd: false,
    env: { DATA_DIR: dataDir, ANALYTICS_LOG_LEVEL: "silent" },
    config: {
      port: 0,
      allowedParentOrigins: [host.origin],
      demo: { size: SIZE, seed: DEFAULT_DEMO_SEED, asOf: AS_OF },
      // Every navigation computes its page on this database: kept results (decision 016) would time memory.
      resultCacheSeconds: 0,
    },
  });
  const browser = await launchChromium();
  try {
    const context = await browser.newContext({ viewport: { width: 1300, height: 950 } });
    const embed = server.config.embedClients[0]!;
    const results: { name: string; times: number[]; loaded: number[] }[] = [];
    for (const demo of DEMO_WORKBOOKS) {
      const times: number[] = [];
      const loaded: number[] = [];
      for (let i = 0; i < NAVIGATIONS + 1; i++) {
        const { url: embedUrl } = await mintEmbedUrl({
          embedBaseUrl: server.embedBaseUrl,
          workbookName: demo.workbookName,
          clientId: embed.clientId,
          secret: embed.secret,
          user: {
            email: CLIENT.email,
            firstName: CLIENT.firstName,
            lastName: CLIENT.lastName,
            accountType: CLIENT.privilege,
            teams: DEMO_WORKBOOKS.map((w) => w.teamName),
            userAttributes: { client_id: CLIENT.clientId },
          },
        });
        const page = await context.newPage();
        await page.goto(host.url(embedUrl));
        await waitForEvent(page, "workbook:dataloaded", 0, 30_000);
        const ms = await sinceNavigation(page, "workbook:dataloaded");
        if (i > 0) {
          times.push(ms);
          loaded.push(await sinceNavigation(page, "workbook:loaded"));
        }
        await page.close();
      }
      results.push({ name: demo.workbookName, times, loaded });
    }
    console.log(
      `\nChromium: iframe navigation to workbook:dataloaded (${NAVIGATIONS} navigations each, after one warm-up; results computed each time)`,
    );
    let worst = 0;
    for (const r of results) {
      const p95 = percentile(r.times, 95);
      worst = Math.max(worst, p95);
      console.log(
        `  ${r.name.padEnd(44)} p50 ${fmt(percentile(r.times, 50))}  p95 ${fmt(p95)}   (workbook:loaded p50 ${fmt(percentile(r.loaded, 50))})`,
      );
    }
    console.log(`  slowest p95: ${worst.toFixed(0)} ms (target < 1000 ms)`);
    await context.close();
  } finally {
    await browser.close();
    await server.close();
    await host.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
