import { spawnSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { createPglite } from "../src/db/client.ts";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const tsx = path.join(root, "node_modules/tsx/dist/cli.mjs");

function run(script: string, args: string[], env: Record<string, string>) {
  return spawnSync(process.execPath, [tsx, path.join(root, "apps/api/src", script), ...args], {
    cwd: root,
    encoding: "utf8",
    timeout: 60_000,
    env: { PATH: process.env.PATH, LOG_LEVEL: "silent", ...env },
  });
}

describe("command line", () => {
  it("stops the server at boot with one readable message for bad configuration", () => {
    const result = run("server.ts", [], {
      DATA_DIR: mkdtempSync(path.join(os.tmpdir(), "cli-")),
      PORT: "not-a-port",
      DEMO_DATA: "sometimes",
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain("Invalid configuration:");
    expect(result.stderr).toMatch(/- PORT: /);
    expect(result.stderr).toMatch(/- DEMO_DATA: must be one of on\/off/);
    expect(result.stderr).not.toMatch(/at .*\.ts:\d+/); // no stack trace
  });

  it(
    "admin:create creates an admin, then resets its password and role when run again",
    { timeout: 120_000 },
    async () => {
      const dataDir = mkdtempSync(path.join(os.tmpdir(), "cli-"));
      const env = { DATA_DIR: dataDir, DEMO_DATA: "off" };
      const weak = run(
        "scripts/admin-create.ts",
        ["--email", "boss@firm.example", "--password", "password1"],
        env,
      );
      expect(weak.status).toBe(1);
      expect(weak.stderr).toMatch(/most commonly used passwords/);

      const first = run(
        "scripts/admin-create.ts",
        ["--email", "boss@firm.example", "--password", "first-admin-passphrase"],
        env,
      );
      expect(first.stdout).toContain("Admin boss@firm.example created.");
      const second = run(
        "scripts/admin-create.ts",
        ["--email", "boss@firm.example", "--password", "second-admin-passphrase"],
        env,
      );
      expect(second.stdout).toContain("Admin boss@firm.example updated (password and role reset).");

      const db = await createPglite(path.join(dataDir, "pglite"));
      try {
        const users = await db.query<{ role: string; n: number }>(
          "select role, (select count(*)::int from users) as n from users where email = 'boss@firm.example'",
        );
        expect(users.rows).toEqual([{ role: "admin", n: 1 }]);
        const audit = await db.query<{ action: string }>("select action from audit_log order by id");
        expect(audit.rows.map((r) => r.action)).toEqual(["user.created", "user.credentials_reset"]);
      } finally {
        await db.close();
      }
    },
  );

  it("prints usage for missing arguments", () => {
    const result = run("scripts/admin-create.ts", [], {
      DATA_DIR: mkdtempSync(path.join(os.tmpdir(), "cli-")),
    });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain("Usage: npm run admin:create -- --email <email> --password <password>");
  });
});
