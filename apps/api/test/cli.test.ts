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

  it(
    "admin:create --reset-two-factor removes a lost enrolment, ends the sessions and audits it",
    { timeout: 120_000 },
    async () => {
      const dataDir = mkdtempSync(path.join(os.tmpdir(), "cli-"));
      const env = { DATA_DIR: dataDir, DEMO_DATA: "off" };
      const args = ["--email", "lost@firm.example", "--password", "misplaced-device-passphrase"];
      expect(run("scripts/admin-create.ts", args, env).status).toBe(0);

      // The admin had set up two-step verification and was signed in somewhere.
      let db = await createPglite(path.join(dataDir, "pglite"));
      try {
        await db.query(`update users set two_factor_enabled = true where email = 'lost@firm.example'`);
        await db.query(`insert into two_factor (id, secret, backup_codes, user_id)
                        select 'tf-lost', 'sealed', 'sealed', id from users where email = 'lost@firm.example'`);
        await db.query(`insert into sessions (id, token, user_id, expires_at, created_at, updated_at)
                        select 's-lost', 'token-lost', id, now() + interval '1 hour', now(), now()
                          from users where email = 'lost@firm.example'`);
      } finally {
        await db.close();
      }

      const kept = run("scripts/admin-create.ts", args, env);
      expect(kept.stdout).toContain("Their two-step verification, if already set up, is kept");
      const reset = run("scripts/admin-create.ts", [...args, "--reset-two-factor"], env);
      expect(reset.status).toBe(0);
      expect(reset.stdout).toContain(
        "Their two-step verification was removed and their sessions ended: they set it up again at the next sign-in.",
      );
      const again = run("scripts/admin-create.ts", [...args, "--reset-two-factor"], env);
      expect(again.stdout).toContain("They had no two-step verification to reset.");

      db = await createPglite(path.join(dataDir, "pglite"));
      try {
        const state = await db.query(`
          select u.two_factor_enabled,
                 (select count(*)::int from two_factor t where t.user_id = u.id) as enrolments,
                 (select count(*)::int from sessions s where s.user_id = u.id) as sessions
            from users u where u.email = 'lost@firm.example'`);
        expect(state.rows).toEqual([{ two_factor_enabled: false, enrolments: 0, sessions: 0 }]);
        const audit = await db.query<{ action: string; actor_email: string; details: unknown }>(
          "select action, actor_email, details from audit_log where action = 'auth.mfa.reset' order by id",
        );
        // The reset, then the second run's reset with nothing left to reset.
        expect(audit.rows).toEqual([
          { action: "auth.mfa.reset", actor_email: "system (admin:create)", details: null },
          {
            action: "auth.mfa.reset",
            actor_email: "system (admin:create)",
            details: { nothingToReset: true },
          },
        ]);
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
