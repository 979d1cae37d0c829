/**
 * npm run bench:embed — POST /api/sigma/provision-and-embed under load (session check, access decision,
 * JWT minting, audit row) next to, in the same run:
 * - the floor: Fastify that signs the same HS256 embed token and commits one audit row per request,
 *   nothing else (no session, no access decision). Targets (issue 26, decision 023): on PostgreSQL the
 *   portal ≥ 1.2× the floor's requests/s with p99 < 10 ms, on PGlite ≥ 1.0× (group commit, lock-free
 *   audit rows and the access cache should make the portal's checks free);
 * - a bare Fastify route answering the same JSON, and a route behind the portal's own hooks answering it
 *   without work (for orientation: decision 005 showed the old target, 0.35 of the bare route, cannot
 *   hold while every URL waits for its committed audit row).
 * With PostgreSQL it then runs two portal processes behind a round-robin proxy (the multi-instance set-up
 * of the README) and prints them next to one instance.
 *
 * Runs on the embedded PGlite as `npm start` uses it (on disk, in a scratch directory) and, when reachable,
 * on the real PostgreSQL (BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/postgres; a scratch
 * database is created and dropped). The load generator runs in its own worker thread so it does not share the servers' event
 * loop. Set BENCH_DATABASES=pglite or =postgres to run one only.
 */
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { DEMO_CLIENTS, DEMO_WORKBOOKS } from "@portal/contracts/demo";
import Fastify from "fastify";
import { sql } from "drizzle-orm";
import { rows } from "../src/db/rows.ts";
import { buildApp } from "../src/app.ts";
import { loadConfig } from "../src/config.ts";
import { createPglite, fromPglite, fromPostgres, type DatabaseHandle } from "../src/db/client.ts";
import { seedDemoData } from "../src/demo/seed.ts";
import { createEmbedder, type EmbedUser } from "../src/sigma/embedder.ts";
import { ADMIN, portalClient, startCluster } from "../test/instances/cluster.ts";
import { BENCH_SERVER, serverAdmin } from "./server-admin.ts";

/** The floor mints for a fixed person: what the portal derives from the database, given. */
const FLOOR_USER: EmbedUser = {
  email: DEMO_CLIENTS[0]!.email,
  firstName: "Olivia",
  lastName: "Bennett",
  privilege: "View",
  teams: [DEMO_WORKBOOKS[0]!.teamName],
  userAttributes: { client_id: DEMO_CLIENTS[0]!.clientId },
};

const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const DATABASES = (process.env.BENCH_DATABASES ?? "pglite,postgres").split(",");
const SCRATCH_DB = `portal_bench_embed_${process.pid}`;

interface Figures {
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
  total: number;
}

async function load(
  url: string,
  headers: Record<string, string>,
  body: string,
  duration = DURATION,
): Promise<Figures> {
  const result = await autocannon({
    url,
    method: "POST",
    headers,
    body,
    connections: CONNECTIONS,
    duration,
    workers: 1,
  });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
    total: result["2xx"],
  };
}

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

const line = (name: string, r: Figures) =>
  `${name.padEnd(30)} ${r.rps.toFixed(0).padStart(7)} req/s   p50 ${String(r.p50).padStart(4)} ms   p99 ${String(r.p99).padStart(4)} ms   non-2xx ${r.non2xx}, errors ${r.errors}`;

async function run(kind: "pglite" | "postgres") {
  const database =
    kind === "pglite"
      ? fromPglite(await createPglite(mkdtempSync(path.join(os.tmpdir(), "portal-bench-embed-db-"))))
      : await openScratchPostgres();
  if (!database) return;
  try {
    await database.migrate();
    const port = 3900 + Math.floor(Math.random() * 90);
    const config = loadConfig({
      PORT: String(port),
      DATA_DIR: mkdtempSync(path.join(os.tmpdir(), "portal-bench-embed-")),
      DEMO_DATA: "off",
      LOG_LEVEL: "silent",
      EMBED_RATE_LIMIT_PER_MINUTE: "100000000",
      AUTH_IP_LIMIT_PER_MINUTE: "100000",
    });
    const { app, auth } = await buildApp({ config, database, logger: false });
    // The floor: a route behind the same hooks (security headers, session check, CSRF, access-cache
    // upkeep) answering a fixed body, so the run shows what the embed work itself adds.
    let fixed: unknown = {};
    app.post("/api/bench/same-hooks", { config: { keepsAccess: true } }, async () => fixed);
    await seedDemoData(auth, database.db);
    await app.listen({ port, host: "127.0.0.1" });
    const [client] = DEMO_CLIENTS;
    const signIn = await fetch(`${config.publicUrl}/api/auth/sign-in/email`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: config.publicUrl },
      body: JSON.stringify({ email: client!.email, password: client!.password }),
    });
    const cookie = signIn.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");
    const headers = { "content-type": "application/json", cookie, origin: config.publicUrl };
    const body = JSON.stringify({ workbookId: DEMO_WORKBOOKS[0]!.workbookName });
    const sample = await (
      await fetch(`${config.publicUrl}/api/sigma/provision-and-embed`, { method: "POST", headers, body })
    ).json();
    if (typeof sample.embedUrl !== "string") throw new Error(`unexpected answer: ${JSON.stringify(sample)}`);
    fixed = sample;

    const bare = Fastify();
    bare.post("/embed", async () => sample);
    await bare.listen({ port: port + 1, host: "127.0.0.1" });

    // The floor: the same minting, one committed audit row per request, nothing else.
    await database.db.execute(
      sql`create table if not exists bench_floor_audit (id bigserial primary key, at timestamptz not null default now(), details jsonb not null)`,
    );
    const embedder = createEmbedder(config);
    const floorApp = Fastify();
    floorApp.post("/embed", async () => {
      const minted = await embedder.mint(FLOOR_USER, DEMO_WORKBOOKS[0]!.workbookName);
      await database.db.execute(
        sql`insert into bench_floor_audit (details) values (${JSON.stringify({ jti: minted.jti })}::jsonb)`,
      );
      return { embedUrl: minted.url };
    });
    await floorApp.listen({ port: port + 2, host: "127.0.0.1" });

    const baseline = await load(`http://127.0.0.1:${port + 1}/embed`, headers, body);
    const floorRoute = await load(`http://127.0.0.1:${port + 2}/embed`, headers, body);
    const floor = await load(`${config.publicUrl}/api/bench/same-hooks`, headers, body);
    const portal = await load(`${config.publicUrl}/api/sigma/provision-and-embed`, headers, body);
    const issued = rows<{ n: number }>(
      await database.db.execute(sql`select count(*)::int as n from audit_log where action = 'embed.issued'`),
    )[0]!.n;
    console.log(`\n${kind}: ${CONNECTIONS} connections, ${DURATION} s each, loopback`);
    console.log(line("bare Fastify, same JSON", baseline));
    console.log(line("portal hooks, same JSON", floor));
    console.log(line("floor: sign + 1 audit row", floorRoute));
    console.log(line("provision-and-embed", portal));
    console.log(`embed URLs recorded in the audit log: ${issued} (2xx answers under load: ${portal.total})`);
    const ratio = portal.rps / floorRoute.rps;
    const target = kind === "postgres" ? { ratio: 1.2, p99: 10 } : { ratio: 1.0, p99: Infinity };
    const p99 = Number.isFinite(target.p99) ? ` (target < ${target.p99} ms)` : "";
    console.log(
      `provision-and-embed ${ratio.toFixed(2)}× the floor (target ≥ ${target.ratio.toFixed(1)}); ` +
        `p99 ${portal.p99} ms${p99}  → ${ratio >= target.ratio && portal.p99 < target.p99 ? "met" : "NOT met"}`,
    );
    console.log(`for orientation: ${(portal.rps / baseline.rps).toFixed(2)} of the bare route`);
    await bare.close();
    await floorApp.close();
    await app.close();
  } finally {
    await database.close();
    if (kind === "postgres") await serverAdmin(`drop database if exists ${SCRATCH_DB}`);
  }
}

/** Two portal processes on PostgreSQL and Redis behind the round-robin proxy, next to one of them alone. */
async function runInstances() {
  let cluster;
  try {
    cluster = await startCluster({
      instances: 2,
      env: { LOG_LEVEL: "silent", EMBED_RATE_LIMIT_PER_MINUTE: "100000000" },
      databaseServer: BENCH_SERVER,
    });
  } catch (error) {
    console.log(`\nmulti-instance run skipped: ${(error as Error).message.split("\n")[0]}`);
    return;
  }
  try {
    const admin = portalClient(cluster.publicUrl);
    await admin.signIn(ADMIN.email, ADMIN.password);
    const [demo] = DEMO_WORKBOOKS;
    const wb = (await (
      await admin.call("POST", "/api/admin/addworkbook", {
        workbook_name: demo!.workbookName,
        team_name: demo!.teamName,
      })
    ).json()) as { data: { id: number } };
    const person = { email: "bench.client@example.com", password: "beacon-marble-orchard-52" };
    const added = await admin.call("POST", "/api/admin/addclient", {
      clientId: "CL-BENCH",
      firstName: "Bench",
      lastName: "Client",
      email: person.email,
      password: person.password,
      role: "client",
      privilege: "View",
      workbookIds: [wb.data.id],
    });
    if (added.status !== 201) throw new Error(`add client: ${added.status} ${await added.text()}`);
    const client = portalClient(cluster.publicUrl);
    await client.signIn(person.email, person.password);
    const headers = { "content-type": "application/json", cookie: client.cookie, origin: cluster.publicUrl };
    const body = JSON.stringify({ workbookId: demo!.workbookName });
    const embedUrl = `${cluster.publicUrl}/api/sigma/provision-and-embed`;
    // Both instances warmed up (caches, JIT) before anything is measured.
    await load(embedUrl, headers, body, 3);
    const direct = await load(`${cluster.instances[0]!.url}/api/sigma/provision-and-embed`, headers, body);
    const two = await load(embedUrl, headers, body);
    await cluster.stopInstance(1);
    const oneBehindProxy = await load(embedUrl, headers, body);
    console.log(
      `\npostgres + Redis, separate processes: ${CONNECTIONS} connections, ${DURATION} s each, loopback`,
    );
    console.log(line("one instance, direct", direct));
    console.log(line("one instance, behind the proxy", oneBehindProxy));
    console.log(line("two instances, behind the proxy", two));
    console.log(
      `two instances: ${(two.rps / oneBehindProxy.rps).toFixed(2)}× one behind the same proxy ` +
        `(${os.cpus().length} cores shared by the instances, PostgreSQL, Redis, the proxy and the load generator)`,
    );
  } finally {
    await cluster.close();
  }
}

async function main() {
  for (const kind of DATABASES) {
    if (kind !== "pglite" && kind !== "postgres") throw new Error(`unknown database ${kind}`);
    await run(kind);
  }
  if (DATABASES.includes("postgres")) await runInstances();
  process.exit(0);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
