import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../support/net.ts";
import { ADMIN, portalClient, startCluster, type Cluster } from "./cluster.ts";

/**
 * The README's example reverse proxy (docs/deploy/nginx.conf), run as written with this test's ports in
 * front of two portal instances started with TRUST_PROXY=1 and PUBLIC_URL at the proxy.
 * CI installs nginx (`apt-get install nginx-light`).
 */
const example = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  "../../../../docs/deploy/nginx.conf",
);

let cluster: Cluster;
let nginx: ChildProcess;
let prefix: string;
let url: string;
let db: pg.Pool;

beforeAll(async () => {
  const port = await freePort();
  url = `http://127.0.0.1:${port}`;
  cluster = await startCluster({ env: { TRUST_PROXY: "1", PUBLIC_URL: url } });
  db = new pg.Pool({ connectionString: cluster.databaseUrl, max: 1 });
  prefix = mkdtempSync(path.join(tmpdir(), "portal-nginx-"));
  const [one, two] = cluster.instances;
  const conf = readFileSync(example, "utf8")
    .replace("server 127.0.0.1:3001", `server 127.0.0.1:${one!.port}`)
    .replace("server 127.0.0.1:3002", `server 127.0.0.1:${two!.port}`)
    .replace("listen 8080;", `listen 127.0.0.1:${port};`)
    // Run as this user, in the foreground, with its files in a scratch directory.
    .replace("events {}", `daemon off;\npid ${prefix}/nginx.pid;\nerror_log ${prefix}/error.log;\nevents {}`)
    .replace(
      "http {",
      `http {\n  access_log off;\n  client_body_temp_path ${prefix}/body;\n  proxy_temp_path ${prefix}/proxy;`,
    );
  writeFileSync(path.join(prefix, "nginx.conf"), conf);
  const check = spawnSync("nginx", ["-t", "-p", prefix, "-c", path.join(prefix, "nginx.conf")], {
    encoding: "utf8",
  });
  expect(check.status, check.stderr).toBe(0);
  nginx = spawn("nginx", ["-p", prefix, "-c", path.join(prefix, "nginx.conf")], { stdio: "ignore" });
  for (let i = 0; i < 100; i++) {
    if (
      await fetch(`${url}/healthz`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`nginx did not start: ${readFileSync(path.join(prefix, "error.log"), "utf8")}`);
}, 180_000);

afterAll(async () => {
  nginx?.kill("SIGQUIT");
  await db?.end();
  await cluster?.close();
  if (prefix) rmSync(prefix, { recursive: true, force: true });
}, 60_000);

describe("the example nginx configuration in front of two instances", () => {
  it("serves the portal and its API through the proxy, signed in, on both instances", async () => {
    expect((await fetch(`${url}/login`)).status).toBe(200);
    expect((await fetch(`${url}/readyz`)).status).toBe(200);
    const admin = portalClient(url);
    await admin.signIn(ADMIN.email, ADMIN.password);
    for (let i = 0; i < 4; i++) expect((await admin.call("GET", "/api/admin/clients")).status).toBe(200);
  });

  it("the portal sees the client's address from the proxy, and a forged X-Forwarded-For is replaced", async () => {
    const res = await fetch(`${url}/api/auth/sign-in/email`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: url, "x-forwarded-for": "203.0.113.66" },
      body: JSON.stringify({ email: "nobody.here@example.com", password: "wrong-horse-staple-99" }),
    });
    expect(res.status).toBe(401);
    const rows = (
      await db.query<{ ip: string | null }>(
        "select ip from audit_log where action = 'auth.sign_in' and outcome <> 'success' order by occurred_at desc limit 1",
      )
    ).rows;
    expect(rows[0]?.ip).toBe("127.0.0.1");
  });

  it("an instance shutting down is skipped: reads keep working while it drains and after it is gone", async () => {
    const admin = portalClient(url);
    await admin.signIn(ADMIN.email, ADMIN.password);
    const stopping = cluster.stopInstance(1, "SIGTERM");
    const statuses: number[] = [];
    for (let i = 0; i < 20; i++) {
      const res = await fetch(`${url}/api/admin/workbooks`, { headers: { cookie: admin.cookie } });
      statuses.push(res.status);
      await new Promise((r) => setTimeout(r, 50));
    }
    await stopping;
    for (let i = 0; i < 5; i++) {
      statuses.push(
        (await fetch(`${url}/api/admin/workbooks`, { headers: { cookie: admin.cookie } })).status,
      );
    }
    expect(statuses.filter((s) => s !== 200)).toEqual([]);
  });
});
