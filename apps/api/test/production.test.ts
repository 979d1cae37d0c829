import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { DEMO_ADMIN, DEMO_FIRM } from "@portal/contracts/demo";
import { describe, expect, it } from "vitest";
import { buildApp } from "../src/app.ts";
import { ConfigError, loadConfig } from "../src/config.ts";
import { openDatabase } from "../src/db/client.ts";
import { seedDemoData } from "../src/demo/seed.ts";
import { createTestApp, headersFor } from "./support/app.ts";
import { createTestDatabase } from "./support/database.ts";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const tsx = path.join(root, "node_modules/tsx/dist/cli.mjs");
const SECRET = "production-test-secret-0123456789-abcdefghij";

const production = (dataDir: string) => ({
  PATH: process.env.PATH ?? "",
  NODE_ENV: "production",
  DATA_DIR: dataDir,
  BETTER_AUTH_SECRET: SECRET,
  PUBLIC_URL: "https://portal.firm.example",
  HOST: "127.0.0.1",
  PORT: "0",
  ANALYTICS_PORT: "3999",
  LOG_LEVEL: "silent",
});

function run(script: string, env: Record<string, string>) {
  return spawnSync(process.execPath, [tsx, path.join(root, "apps/api/src", script)], {
    cwd: root,
    encoding: "utf8",
    timeout: 90_000,
    env,
  });
}

/** Starts the server and resolves with what it printed once it says it is running (then stops it). */
function startServer(env: Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [tsx, path.join(root, "apps/api/src/server.ts")], {
      cwd: root,
      env,
    });
    let out = "";
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`server did not start: ${out}`));
    }, 90_000);
    child.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes("is running at")) {
        clearTimeout(timer);
        child.once("exit", () => resolve(out));
        child.kill("SIGTERM");
      }
    });
    child.stderr.on("data", (chunk: Buffer) => (out += chunk.toString()));
    child.once("exit", (code) => {
      if (!out.includes("is running at")) {
        clearTimeout(timer);
        reject(new Error(`server exited with ${code}: ${out}`));
      }
    });
  });
}

describe("production is never the demo", () => {
  it("turns demo data and the demo sign-up domain off, and refuses DEMO_DATA=1", () => {
    const base = { NODE_ENV: "production", BETTER_AUTH_SECRET: SECRET, PUBLIC_URL: "https://p.example" };
    const config = loadConfig({ ...base, DATA_DIR: mkdtempSync(path.join(os.tmpdir(), "prod-")) });
    expect(config.demoData).toBe(false);
    expect(config.signUpDomains).toEqual([]);
    expect(config.signUpDomains).not.toContain(DEMO_FIRM.domain);
    expect(config.apiDocs).toBe(false);
    expect(() => loadConfig({ ...base, DEMO_DATA: "1" })).toThrow(ConfigError);
    expect(() => loadConfig({ ...base, DEMO_DATA: "1" })).toThrow(
      "DEMO_DATA cannot be on in production: the demo firm's sign-ins are published",
    );
    expect(loadConfig({ ...base, API_DOCS: "1" }).apiDocs).toBe(true);
  });

  it("refuses to start while an account has a published demo password or TOTP key, until demo:retire", async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), "prod-demo-"));
    // A database that once ran the demo (say, copied from a trial) …
    const trialConfig = loadConfig({ DATA_DIR: dataDir, BETTER_AUTH_SECRET: SECRET, LOG_LEVEL: "silent" });
    const database = await openDatabase(trialConfig);
    await database.migrate();
    const { app, auth } = await buildApp({ config: trialConfig, database, logger: false });
    await seedDemoData(auth, database.db);
    await app.close();
    await database.close();

    // … is refused in production, naming the accounts and the command.
    const refused = run("server.ts", production(dataDir));
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain("Refusing to start in production");
    expect(refused.stderr).toContain(`${DEMO_ADMIN.email} (demo password)`);
    expect(refused.stderr).toContain(`${DEMO_ADMIN.email} (demo two-step verification key)`);
    expect(refused.stderr).toContain("olivia.bennett@example.com (demo password)");
    expect(refused.stderr).toContain("npm run demo:retire");
    expect(refused.stdout).not.toContain("is running at");

    const retired = run("scripts/demo-retire.ts", production(dataDir));
    expect(retired.status).toBe(0);
    expect(retired.stdout).toContain(`Retired ${DEMO_ADMIN.email} (demo password).`);

    const started = await startServer(production(dataDir));
    expect(started).toContain("is running at https://portal.firm.example/login");
    expect(started).not.toContain("Demo sign-ins");
  }, 180_000);
});

describe("/api/docs", () => {
  it("is off in production unless API_DOCS=1, and then only for signed-in admins", async () => {
    const database = await createTestDatabase();
    const env = { NODE_ENV: "production", BETTER_AUTH_SECRET: SECRET };
    const off = await createTestApp(database, env);
    const on = await createTestApp(database, { ...env, API_DOCS: "1" });
    try {
      expect((await off.app.inject({ method: "GET", url: "/api/docs" })).statusCode).toBe(404);
      expect((await off.app.inject({ method: "GET", url: "/api/docs/json" })).statusCode).toBe(404);

      const anonymous = await on.app.inject({ method: "GET", url: "/api/docs/json" });
      expect(anonymous.statusCode).toBe(401);
      const client = await on.app.inject({
        method: "GET",
        url: "/api/docs/json",
        headers: await headersFor(on, "client"),
      });
      expect(client.statusCode).toBe(403);
      const admin = await on.app.inject({
        method: "GET",
        url: "/api/docs/json",
        headers: await headersFor(on, "admin"),
      });
      expect(admin.statusCode).toBe(200);
      expect(admin.json()).toHaveProperty("openapi");
    } finally {
      await off.app.close();
      await on.app.close();
      await database.close();
    }
  });
});
