/**
 * npm run bench:import — 10,000 clients with workbook assignments imported from one CSV file (upload and
 * preview, then the import job in batches) next to, in the same run, the same clients added through
 * `POST /api/admin/addclient` one by one. The one-by-one path is measured on a sample (BENCH_SAMPLE, default
 * 500 requests) and extrapolated to the full count, and says so. Also measures one Argon2id hash (the
 * floor every created account pays, once per row) sequentially and on the thread pool.
 *
 * Targets (issue 14): the import under 60 s on PGlite, and at least 5× faster than one by one.
 *
 * Runs on the embedded PGlite as `npm start` uses it (on disk, in a scratch directory) and, when reachable,
 * on PostgreSQL (BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/postgres; a scratch database
 * is created and dropped). BENCH_DATABASES=pglite or =postgres runs one only; BENCH_ROWS changes the count.
 */
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { ensureUser } from "../src/accounts/accounts.ts";
import { hashPassword } from "../src/accounts/password.ts";
import { rows } from "../src/db/rows.ts";
import { buildApp } from "../src/app.ts";
import { loadConfig } from "../src/config.ts";
import { createPglite, fromPglite, fromPostgres, type DatabaseHandle } from "../src/db/client.ts";
import { startImportWorker } from "../src/import/worker.ts";
import { BENCH_SERVER, serverAdmin } from "./server-admin.ts";

const ROWS = Number(process.env.BENCH_ROWS ?? 10_000);
const SAMPLE = Math.min(Number(process.env.BENCH_SAMPLE ?? 500), ROWS);
const DATABASES = (process.env.BENCH_DATABASES ?? "pglite,postgres").split(",");
const SCRATCH_DB = `portal_bench_import_${process.pid}`;
const WORKBOOKS = ["Portfolio-Overview", "Tax-Center", "Income-and-Fees", "Estate-Planning", "Risk-Review"];

async function openScratchPostgres(): Promise<DatabaseHandle | null> {
  try {
    await serverAdmin(`create database ${SCRATCH_DB}`);
  } catch (error) {
    console.log(`PostgreSQL at ${BENCH_SERVER} not reachable, skipped: ${(error as Error).message}`);
    return null;
  }
  const url = new URL(BENCH_SERVER);
  url.pathname = `/${SCRATCH_DB}`;
  return fromPostgres(url.toString());
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

async function measureHashing() {
  const n = 40;
  let start = performance.now();
  for (let i = 0; i < n; i++) await hashPassword(`bench-hash-${i}-passphrase`);
  const sequential = (performance.now() - start) / n;
  start = performance.now();
  await Promise.all(Array.from({ length: n * 2 }, (_, i) => hashPassword(`bench-hash-${i}-parallel`)));
  const parallel = (performance.now() - start) / (n * 2);
  return { sequential, parallel };
}

function csvFile(count: number, workbookNames: string[], prefix: string): string {
  const lines = ["Client ID,First name,Last name,Email,Password,Privilege,Workbooks"];
  for (let i = 1; i <= count; i++) {
    const workbooks = [
      workbookNames[i % workbookNames.length]!,
      workbookNames[(i + 2) % workbookNames.length]!,
    ];
    lines.push(
      `${prefix}-${i},Bench${i},"Client, ${i}",bench.${prefix.toLowerCase()}${i}@example.com,amber-lantern-quay-${(i * 7919).toString(36)},View,"${workbooks.join(";")}"`,
    );
  }
  return lines.join("\r\n") + "\r\n";
}

async function run(kind: "pglite" | "postgres", hashing: { sequential: number; parallel: number }) {
  const database =
    kind === "pglite"
      ? fromPglite(await createPglite(mkdtempSync(path.join(os.tmpdir(), "portal-bench-import-db-"))))
      : await openScratchPostgres();
  if (!database) return;
  try {
    await database.migrate();
    const port = 3800 + Math.floor(Math.random() * 90);
    const config = loadConfig({
      PORT: String(port),
      DATA_DIR: mkdtempSync(path.join(os.tmpdir(), "portal-bench-import-")),
      DEMO_DATA: "off",
      LOG_LEVEL: "silent",
      AUTH_IP_LIMIT_PER_MINUTE: "100000",
      MFA_REQUIRED_ROLES: "",
    });
    const { app } = await buildApp({ config, database, logger: false });
    await app.listen({ port, host: "127.0.0.1" });
    const admin = { email: "portal.operator@example.com", password: "granite-harbour-quay-key" };
    await ensureUser(database.db, { ...admin, name: "Bench Admin", role: "admin", resetExisting: false });
    const signIn = await fetch(`${config.publicUrl}/api/auth/sign-in/email`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: config.publicUrl },
      body: JSON.stringify(admin),
    });
    const cookie = signIn.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");
    const headers = { cookie, origin: config.publicUrl };
    const workbooks: { id: number; workbook_name: string }[] = [];
    for (const [i, name] of WORKBOOKS.entries()) {
      const res = await fetch(`${config.publicUrl}/api/admin/addworkbook`, {
        method: "POST",
        headers: { ...headers, "content-type": "application/json" },
        body: JSON.stringify({
          workbook_name: `${name}-Bench${i}abcdefghijklmnopq`,
          team_name: `${name} Team`,
        }),
      });
      workbooks.push((await res.json()).data);
    }

    // The CSV import: upload and preview, then the job, as the admin's screen does it.
    const worker = startImportWorker({ db: database.db, pollMs: 100 });
    const file = csvFile(
      ROWS,
      workbooks.map((w) => w.workbook_name),
      "IMP",
    );
    const started = performance.now();
    const uploaded = await fetch(`${config.publicUrl}/api/admin/imports?kind=client&fileName=bench.csv`, {
      method: "POST",
      headers: { ...headers, "content-type": "text/csv" },
      body: file,
    });
    const preview = await uploaded.json();
    if (uploaded.status !== 201 || preview.valid !== ROWS)
      throw new Error(`preview: ${JSON.stringify(preview).slice(0, 500)}`);
    const previewed = performance.now();
    await fetch(`${config.publicUrl}/api/admin/imports/${preview.id}/start`, { method: "POST", headers });
    let job;
    do {
      await new Promise((resolve) => setTimeout(resolve, 250));
      job = await (await fetch(`${config.publicUrl}/api/admin/imports/${preview.id}`, { headers })).json();
    } while (job.status !== "done");
    const imported = performance.now();
    await worker.stop();
    if (job.created !== ROWS) throw new Error(`import created ${job.created} of ${ROWS}`);
    const importMs = imported - started;
    const check = rows<{ clients: number; assignments: number; outbox: number }>(
      await database.db.execute(sql`
        select (select count(*)::int from clients) as clients,
               (select count(*)::int from client_workbooks) as assignments,
               (select count(*)::int from provisioning_requests) as outbox`),
    )[0]!;

    // One by one, as Add Client: a sample, extrapolated.
    const oneStart = performance.now();
    for (let i = 1; i <= SAMPLE; i++) {
      const res = await fetch(`${config.publicUrl}/api/admin/addclient`, {
        method: "POST",
        headers: { ...headers, "content-type": "application/json" },
        body: JSON.stringify({
          clientId: `ONE-${i}`,
          firstName: `Bench${i}`,
          lastName: `Client, ${i}`,
          email: `bench.one${i}@example.com`,
          password: `amber-lantern-quay-${(i * 7919).toString(36)}`,
          role: "client",
          privilege: "View",
          workbookIds: [workbooks[i % 5]!.id, workbooks[(i + 2) % 5]!.id],
        }),
      });
      if (res.status !== 201) throw new Error(`addclient: ${res.status} ${await res.text()}`);
    }
    const perClient = (performance.now() - oneStart) / SAMPLE;
    const oneByOne = perClient * ROWS;
    await app.close();

    const floor = (hashing.parallel * ROWS) / 1000;
    console.log(`\n${kind}: ${ROWS.toLocaleString("en")} clients, 2 workbooks each`);
    console.log(
      `  CSV import (upload, preview, job):   ${seconds(importMs)}  (preview ${seconds(previewed - started)}, ${(ROWS / (importMs / 1000)).toFixed(0)} clients/s)`,
    );
    console.log(
      `  created: ${check.clients} clients, ${check.assignments} assignments, ${check.outbox} outbox rows`,
    );
    console.log(
      `  one by one, POST /api/admin/addclient: ${perClient.toFixed(1)} ms a client measured on ${SAMPLE}, extrapolated to ${ROWS.toLocaleString("en")}: ${seconds(oneByOne)}`,
    );
    console.log(
      `  hashing floor: ${ROWS.toLocaleString("en")} × ${hashing.parallel.toFixed(1)} ms (Argon2id on the thread pool) = ${floor.toFixed(1)} s`,
    );
    const ratio = oneByOne / importMs;
    console.log(
      `  import ${ratio.toFixed(1)}× faster than one by one (target ≥ 5×) → ${ratio >= 5 ? "met" : "NOT met"}`,
    );
    if (kind === "pglite") {
      console.log(`  import under 60 s on PGlite → ${importMs < 60_000 ? "met" : "NOT met"}`);
    }
  } finally {
    await database.close();
    if (kind === "postgres") await serverAdmin(`drop database if exists ${SCRATCH_DB}`);
  }
}

const hashing = await measureHashing();
console.log(
  `Argon2id (m=19 MiB, t=2, p=1) on this machine (${os.cpus().length} cores): ${hashing.sequential.toFixed(1)} ms a hash one at a time, ${hashing.parallel.toFixed(1)} ms a hash in throughput with ${process.env.UV_THREADPOOL_SIZE ?? 4} pool threads`,
);
for (const kind of DATABASES) await run(kind as "pglite" | "postgres", hashing);
