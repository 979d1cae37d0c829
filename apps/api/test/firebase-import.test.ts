import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { and, count, eq, like } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  FirebaseFileError,
  parseFirebaseHashConfig,
  parseFirebaseUsers,
} from "../src/accounts/firebase-files.ts";
import { formatImportReport, importFirebaseUsers } from "../src/accounts/firebase-import.ts";
import {
  decodeFirebaseBase64,
  decodeFirebaseHash,
  firebaseScryptHash,
  verifyFirebaseScrypt,
  type FirebaseHashConfig,
} from "../src/accounts/firebase-scrypt.ts";
import { createPglite, type DatabaseHandle } from "../src/db/client.ts";
import { accounts, auditLog, users } from "../src/db/schema.ts";
import { createTestApp, ORIGIN } from "./support/app.ts";
import { createTestDatabase } from "./support/database.ts";

// Firebase's published sample (github.com/firebase/scrypt, README "Password Hashing"): the project's
// hash parameters, one exported account's salt, its password and the hash Firebase stored for it.
const SAMPLE = {
  base64_signer_key:
    "jxspr8Ki0RYycVU8zykbdLGjFQ3McFUH0uiiTvC8pVMXAn210wjLNmdZJzxUECKbm0QsEmYUSDzZvpjeJ9WmXA==",
  base64_salt_separator: "Bw==",
  rounds: 8,
  mem_cost: 14,
};
const SAMPLE_USER = {
  localId: "kYi4EvWQlQTKSfnJ3dRSP6IH3ed2",
  email: "user1@test.com",
  salt: "42xEC+ixf3L2lw==",
  password: "user1password",
  passwordHash: "lSrfV15cpx95/sZS2W9c9Kp6i/LVgQNDNC/qzrCnh1SAyZvqmZqAjTdn3aoItz+VHjoZilo78198JAdRuid5lQ==",
};

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const tmp = mkdtempSync(path.join(os.tmpdir(), "firebase-import-"));
const hashConfig: FirebaseHashConfig = parseFirebaseHashConfig("hash.json", JSON.stringify(SAMPLE));

let database: DatabaseHandle;
let t: Awaited<ReturnType<typeof createTestApp>>;
let ipCounter = 0;
const nextIp = () => `198.51.100.${(ipCounter += 1)}`;

beforeAll(async () => {
  database = await createTestDatabase();
  t = await createTestApp(database, { AUTH_IP_LIMIT_PER_MINUTE: "100000" });
});
afterAll(async () => {
  await t.app.close();
  await database.close();
});

/** A Firebase-style account with a password hashed as Firebase hashes it under the sample parameters. */
async function firebaseUser(fields: Record<string, unknown> & { password?: string }) {
  const { password, ...rest } = fields;
  if (!password) return rest;
  const salt = Buffer.from(`salt-${String(rest.localId)}`).subarray(0, 10);
  const hash = await firebaseScryptHash(password, salt, hashConfig);
  return { ...rest, salt: salt.toString("base64"), passwordHash: hash.toString("base64") };
}

function writeFile(name: string, content: string): string {
  const file = path.join(tmp, name);
  writeFileSync(file, content);
  return file;
}

/** Writes the export as `firebase auth:export --format=json` does and reads it back as the command does. */
async function exportAndRead(name: string, exported: unknown[]) {
  const file = writeFile(name, JSON.stringify({ users: exported }, null, 2));
  return parseFirebaseUsers(file, await readFile(file, "utf8"));
}

async function storedHash(email: string) {
  const [row] = await database.db
    .select({ password: accounts.password })
    .from(accounts)
    .innerJoin(users, eq(users.id, accounts.userId))
    .where(and(eq(users.email, email), eq(accounts.providerId, "credential")));
  return row?.password ?? null;
}

async function rowCounts() {
  const [u] = await database.db.select({ n: count() }).from(users);
  const [a] = await database.db.select({ n: count() }).from(accounts);
  const [l] = await database.db.select({ n: count() }).from(auditLog);
  return { users: u!.n, accounts: a!.n, audit: l!.n };
}

function importWith(exported: Parameters<typeof importFirebaseUsers>[1], dryRun = false) {
  return importFirebaseUsers(database.db, exported, hashConfig, { dryRun, actor: "system (test)" });
}

describe("Firebase's modified scrypt", () => {
  it("reproduces the hash of Firebase's published test vector", async () => {
    const hash = await firebaseScryptHash(
      SAMPLE_USER.password,
      decodeFirebaseBase64(SAMPLE_USER.salt)!,
      hashConfig,
    );
    expect(hash.toString("base64")).toBe(SAMPLE_USER.passwordHash);
    const stored = {
      hash: decodeFirebaseBase64(SAMPLE_USER.passwordHash)!,
      salt: decodeFirebaseBase64(SAMPLE_USER.salt)!,
    };
    expect(await verifyFirebaseScrypt(SAMPLE_USER.password, stored, hashConfig)).toBe(true);
    expect(await verifyFirebaseScrypt("user1Password", stored, hashConfig)).toBe(false);
    // Another project's parameters give another hash.
    const otherProject = { ...hashConfig, saltSeparator: Buffer.from([8]) };
    expect(await verifyFirebaseScrypt(SAMPLE_USER.password, stored, otherProject)).toBe(false);
  });

  it("reads the URL-safe base64 of the Admin SDK as well as the CLI's standard base64", () => {
    const standard = decodeFirebaseBase64(SAMPLE_USER.passwordHash)!;
    const urlSafe = SAMPLE_USER.passwordHash.replace(/\+/g, "-").replace(/\//g, "_");
    expect(decodeFirebaseBase64(urlSafe)).toEqual(standard);
    expect(decodeFirebaseBase64("not base64!")).toBeUndefined();
  });
});

describe("npm run import:firebase (accounts module)", () => {
  it("imports an export: old passwords sign in once the Firebase way and are then stored as Argon2id", async () => {
    const exported = await exportAndRead("users.json", [
      {
        localId: SAMPLE_USER.localId,
        email: SAMPLE_USER.email,
        emailVerified: false,
        passwordHash: SAMPLE_USER.passwordHash,
        salt: SAMPLE_USER.salt,
        displayName: "Test User 1",
        photoUrl: "https://lh3.googleusercontent.example/photo.jpg",
        createdAt: "1508893925000",
        providerUserInfo: [{ providerId: "password", rawId: SAMPLE_USER.email }],
      },
      await firebaseUser({
        localId: "uid-admin",
        email: "Grace.Partner@Meridian-Advisory.example",
        emailVerified: true,
        password: "partner-ledger-2019",
        displayName: "Grace Partner",
        customAttributes: '{"admin":true,"team":"tax"}',
      }),
      await firebaseUser({
        localId: "uid-staff",
        email: "otto.staff@meridian-advisory.example",
        password: "otto-quarterly-close",
        customAttributes: '{"admin":false}',
      }),
    ]);
    const report = await importWith(exported);
    expect(report.skipped).toEqual([]);
    expect(report.imported.map((p) => [p.account.email, p.account.role])).toEqual([
      ["user1@test.com", "author"],
      ["grace.partner@meridian-advisory.example", "admin"],
      ["otto.staff@meridian-advisory.example", "author"],
    ]);

    const [person] = await database.db.select().from(users).where(eq(users.email, SAMPLE_USER.email));
    expect(person).toMatchObject({
      name: "Test User 1",
      image: "https://lh3.googleusercontent.example/photo.jpg",
      role: "author",
      banned: false,
    });
    const before = await storedHash(SAMPLE_USER.email);
    expect(before).toMatch(/^\$firebase-scrypt\$r=8,m=14\$/);
    expect(decodeFirebaseHash(before!)?.hash.toString("base64")).toBe(SAMPLE_USER.passwordHash);

    // A wrong password is refused and leaves the Firebase hash in place.
    expect((await t.signIn(SAMPLE_USER.email, "not-user1-password", nextIp())).statusCode).toBe(401);
    expect(await storedHash(SAMPLE_USER.email)).toBe(before);

    const signedIn = await t.signIn(SAMPLE_USER.email, SAMPLE_USER.password, nextIp());
    expect(signedIn.statusCode).toBe(200);
    const after = await storedHash(SAMPLE_USER.email);
    expect(after).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    // From now on the Argon2id hash answers: same password in, others out.
    expect((await t.signIn(SAMPLE_USER.email, SAMPLE_USER.password, nextIp())).statusCode).toBe(200);
    expect((await t.signIn(SAMPLE_USER.email, "not-user1-password", nextIp())).statusCode).toBe(401);
    expect(await storedHash(SAMPLE_USER.email)).toBe(after);

    const trail = await database.db
      .select({ action: auditLog.action, details: auditLog.details, after: auditLog.after })
      .from(auditLog)
      .where(and(eq(auditLog.targetId, person!.id), like(auditLog.action, "user.%")));
    expect(trail.map((r) => r.action)).toEqual(["user.imported", "user.password_rehashed"]);
    expect(trail[0]!.details).toMatchObject({ source: "firebase", firebaseUid: SAMPLE_USER.localId });
    expect(JSON.stringify(trail)).not.toContain(SAMPLE_USER.passwordHash);
  });

  it("makes the admin claim an admin and everyone else an author", async () => {
    const [grace] = await database.db
      .select({ role: users.role })
      .from(users)
      .where(eq(users.email, "grace.partner@meridian-advisory.example"));
    expect(grace?.role).toBe("admin");
    const signedIn = await t.signIn(
      "grace.partner@meridian-advisory.example",
      "partner-ledger-2019",
      nextIp(),
    );
    expect(signedIn.statusCode).toBe(200);
    const session = await t.app.inject({
      method: "GET",
      url: "/api/auth/get-session",
      headers: { cookie: String(signedIn.headers["set-cookie"]).split(";")[0]!, origin: ORIGIN },
    });
    expect(session.json()).toMatchObject({ user: { role: "admin", twoFactorEnabled: false } });

    const [otto] = await database.db
      .select({ role: users.role })
      .from(users)
      .where(eq(users.email, "otto.staff@meridian-advisory.example"));
    expect(otto?.role).toBe("author");
  });

  it("rehashes once when two sign-ins with the old password arrive together", async () => {
    const email = "otto.staff@meridian-advisory.example";
    expect(await storedHash(email)).toMatch(/^\$firebase-scrypt\$/);
    const answers = await Promise.all([
      t.signIn(email, "otto-quarterly-close", nextIp()),
      t.signIn(email, "otto-quarterly-close", nextIp()),
    ]);
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200]);
    expect(await storedHash(email)).toMatch(/^\$argon2id\$/);
    const rehashed = await database.db
      .select({ n: count() })
      .from(auditLog)
      .where(and(eq(auditLog.action, "user.password_rehashed"), eq(auditLog.actorEmail, email)));
    expect(rehashed[0]!.n).toBe(1);
  });

  it("keeps disabled people disabled, and lets people without a password set one by reset", async () => {
    const exported = await exportAndRead("users-2.json", [
      await firebaseUser({
        localId: "uid-gone",
        email: "former.client@example.com",
        password: "former-client-secret",
        disabled: true,
      }),
      { localId: "uid-google", email: "google.only@example.com", displayName: "Google Only" },
    ]);
    const report = await importWith(exported);
    expect(report.imported.map((p) => p.notes)).toEqual([
      ['no displayName: named "former.client"', "disabled: stays disabled"],
      ["no password: sets one with Reset Password"],
    ]);

    const refused = await t.signIn("former.client@example.com", "former-client-secret", nextIp());
    expect(refused.statusCode).toBe(403);
    expect(refused.headers["set-cookie"] ?? "").not.toMatch(/session_token=[^;]/);
    const [gone] = await database.db.select().from(users).where(eq(users.email, "former.client@example.com"));
    expect(gone).toMatchObject({ banned: true, banReason: expect.stringMatching(/Firebase/) as unknown });

    expect(await storedHash("google.only@example.com")).toBeNull();
    expect((await t.signIn("google.only@example.com", "anything-at-all", nextIp())).statusCode).toBe(401);
    const token = await t.resetTokenFor("google.only@example.com");
    const reset = await t.post("/api/auth/reset-password", "", {
      token,
      newPassword: "a-fresh-ledger-passphrase",
    });
    expect(reset.statusCode).toBe(200);
    expect(
      (await t.signIn("google.only@example.com", "a-fresh-ledger-passphrase", nextIp())).statusCode,
    ).toBe(200);
  });

  it("skips emails that exist already or twice in the file, and people it cannot import, with reasons", async () => {
    const existing = await t.createUser("client");
    const exported = await exportAndRead("users-3.json", [
      await firebaseUser({
        localId: "uid-dup",
        email: existing.email.toUpperCase(),
        password: "someone-else-1",
      }),
      await firebaseUser({
        localId: "uid-new",
        email: "new.person@example.com",
        password: "new-person-pass",
      }),
      await firebaseUser({ localId: "uid-new-2", email: "New.Person@example.com", password: "second-entry" }),
      { localId: "uid-phone" },
      { localId: "uid-bad-claims", email: "claims@example.com", customAttributes: "{admin:true" },
      { localId: "uid-bad-name", email: "name@example.com", displayName: "Two\nLines" },
    ]);
    const report = await importWith(exported);
    expect(report.imported.map((p) => p.account.email)).toEqual(["new.person@example.com"]);
    expect(report.skipped).toEqual([
      { who: "New.Person@example.com", reason: "the same email appears earlier in the file" },
      { who: "uid uid-phone", reason: expect.stringMatching(/^no email address/) as unknown },
      {
        who: "claims@example.com",
        reason: expect.stringMatching(/customAttributes is not valid JSON/) as unknown,
      },
      { who: "name@example.com", reason: "displayName must be on one line (no line breaks)." },
      { who: existing.email, reason: "an account with this email already exists in the portal" },
    ]);
    // The existing account is untouched: its own password still signs in, the imported one does not.
    expect((await t.signIn(existing.email, existing.password, nextIp())).statusCode).toBe(200);
    expect((await t.signIn(existing.email, "someone-else-1", nextIp())).statusCode).toBe(401);

    const printed = formatImportReport(report);
    expect(printed).toContain("Imported (1):");
    expect(printed).toContain(`${existing.email}  an account with this email already exists in the portal`);
    expect(printed).toMatch(/1 imported, 5 skipped\.$/);
  });

  it("writes nothing on a dry run, and reports what it would do", async () => {
    const exported = await exportAndRead("users-4.json", [
      await firebaseUser({ localId: "uid-dry", email: "dry.run@example.com", password: "dry-run-password" }),
      await firebaseUser({ localId: "uid-again", email: SAMPLE_USER.email, password: "whatever-it-was" }),
    ]);
    const before = await rowCounts();
    const report = await importWith(exported, true);
    expect(await rowCounts()).toEqual(before);
    expect(report.imported.map((p) => p.account.email)).toEqual(["dry.run@example.com"]);
    expect(report.skipped.map((s) => s.who)).toEqual([SAMPLE_USER.email]);
    expect(formatImportReport(report)).toMatch(
      /^Would import \(1\):[\s\S]*Dry run: 1 would be imported, 1 skipped; nothing was changed\.$/,
    );
  });

  it("audits each run with its counts", async () => {
    const runs = await database.db
      .select({ details: auditLog.details })
      .from(auditLog)
      .where(eq(auditLog.action, "user.import_completed"));
    expect(runs.map((r) => r.details)).toEqual([
      { source: "firebase", inFile: 3, imported: 3, skipped: 0 },
      { source: "firebase", inFile: 2, imported: 2, skipped: 0 },
      { source: "firebase", inFile: 6, imported: 1, skipped: 5 },
    ]);
  });
});

describe("the files of an export", () => {
  it("refuses a users file that is not JSON or not a Firebase export, naming the file and the problem", () => {
    expect(() => parseFirebaseUsers("users.csv", "kYi4,user1@test.com,false,lSrf...\n")).toThrow(
      /^users\.csv: is not JSON .*firebase auth:export users\.json --format=json/,
    );
    expect(() => parseFirebaseUsers("users.json", '[{"localId":"a"}]')).toThrow(
      'users.json: has no "users" list.',
    );
    expect(() =>
      parseFirebaseUsers(
        "users.json",
        '{"users":[{"localId":"a","email":"a@example.com","disabled":"yes"}]}',
      ),
    ).toThrow(
      "users.json: is not a Firebase user export: users[0].disabled: Invalid input: expected boolean",
    );
    expect(() => parseFirebaseUsers("users.json", '{"users":[{"email":"a@example.com"}]}')).toThrow(
      /users\[0\]\.localId/,
    );
  });

  it("reads the hash parameters in each shape Firebase shows them", () => {
    const expected = hashConfig;
    // The console's "Password hash parameters" dialog.
    const consoleText = `hash_config {
  algorithm: SCRYPT,
  base64_signer_key: ${SAMPLE.base64_signer_key},
  base64_salt_separator: Bw==,
  rounds: 8,
  mem_cost: 14,
}`;
    expect(parseFirebaseHashConfig("hash.txt", consoleText)).toEqual(expected);
    expect(parseFirebaseHashConfig("hash.json", JSON.stringify({ hash_config: SAMPLE }))).toEqual(expected);
    const camel = {
      algorithm: "SCRYPT",
      signerKey: SAMPLE.base64_signer_key,
      saltSeparator: "Bw==",
      rounds: 8,
      memoryCost: 14,
    };
    expect(parseFirebaseHashConfig("config.json", JSON.stringify({ signIn: { hashConfig: camel } }))).toEqual(
      expected,
    );
    expect(
      parseFirebaseHashConfig("hash.json", JSON.stringify({ ...SAMPLE, rounds: "8", mem_cost: "14" })),
    ).toEqual(expected);
  });

  it("refuses hash parameters that are missing, out of range or of another algorithm", () => {
    const { mem_cost: _memCost, base64_salt_separator: _separator, ...partial } = SAMPLE;
    expect(() => parseFirebaseHashConfig("hash.json", JSON.stringify(partial))).toThrow(
      /^hash\.json: missing base64_salt_separator, mem_cost\. Expected the project's password hash parameters/,
    );
    expect(() => parseFirebaseHashConfig("hash.json", "rounds = 8")).toThrow(
      /^hash\.json: is neither JSON nor the console's hash_config block/,
    );
    expect(() =>
      parseFirebaseHashConfig("hash.json", JSON.stringify({ ...SAMPLE, rounds: 9, mem_cost: 0 })),
    ).toThrow(
      "hash.json: rounds must be a whole number from 1 to 8; mem_cost must be a whole number from 1 to 14.",
    );
    expect(() =>
      parseFirebaseHashConfig("hash.json", JSON.stringify({ ...SAMPLE, base64_signer_key: "%%%" })),
    ).toThrow("hash.json: base64_signer_key is not base64.");
    expect(() =>
      parseFirebaseHashConfig("hash.json", JSON.stringify({ ...SAMPLE, algorithm: "HMAC_SHA256" })),
    ).toThrow(FirebaseFileError);
  });
});

describe("the command", () => {
  const tsx = path.join(root, "node_modules/tsx/dist/cli.mjs");
  const script = path.join(root, "apps/api/src/scripts/import-firebase.ts");
  function run(args: string[], dataDir: string) {
    return spawnSync(process.execPath, [tsx, script, ...args], {
      cwd: root,
      encoding: "utf8",
      timeout: 90_000,
      env: { PATH: process.env.PATH, LOG_LEVEL: "silent", DATA_DIR: dataDir, DEMO_DATA: "off" },
    });
  }

  it(
    "refuses bad files before opening the database, dry-runs, imports, and skips everyone on a second run",
    { timeout: 240_000 },
    async () => {
      const dataDir = mkdtempSync(path.join(os.tmpdir(), "firebase-cli-"));
      const usersFile = writeFile(
        "cli-users.json",
        JSON.stringify({
          users: [
            {
              localId: SAMPLE_USER.localId,
              email: SAMPLE_USER.email,
              passwordHash: SAMPLE_USER.passwordHash,
              salt: SAMPLE_USER.salt,
              displayName: "Test User 1",
              customAttributes: '{"admin":true}',
            },
          ],
        }),
      );
      const hashFile = writeFile("cli-hash.json", JSON.stringify(SAMPLE));
      const badHash = writeFile("cli-bad-hash.json", JSON.stringify({ rounds: 8 }));

      const bad = run(["--users", usersFile, "--hash-config", badHash], dataDir);
      expect(bad.status).toBe(1);
      expect(bad.stderr).toContain(
        `Could not import the Firebase users: ${badHash}: missing base64_signer_key, base64_salt_separator, mem_cost.`,
      );
      expect(bad.stderr).not.toMatch(/at .*\.ts:\d+/);
      expect(existsSync(path.join(dataDir, "pglite"))).toBe(false);
      expect(run(["--users", usersFile], dataDir).stderr).toContain("Usage: npm run import:firebase");

      const dry = run(["--users", usersFile, "--hash-config", hashFile, "--dry-run"], dataDir);
      expect(dry.stderr).toBe("");
      expect(dry.stdout).toContain("Would import (1):\n  user1@test.com  admin");
      expect(dry.stdout).toContain("nothing was changed.");

      const real = run(["--users", usersFile, "--hash-config", hashFile], dataDir);
      expect(real.stderr).toBe("");
      expect(real.stdout).toContain("Imported (1):\n  user1@test.com  admin");
      const again = run(["--users", usersFile, "--hash-config", hashFile], dataDir);
      expect(again.stdout).toContain(
        "Skipped (1):\n  user1@test.com  an account with this email already exists in the portal",
      );

      const db = await createPglite(path.join(dataDir, "pglite"));
      try {
        const rows = await db.query<{ role: string; password: string }>(
          "select u.role, a.password from users u join accounts a on a.user_id = u.id",
        );
        expect(rows.rows).toHaveLength(1);
        expect(rows.rows[0]!.role).toBe("admin");
        expect(rows.rows[0]!.password).toMatch(/^\$firebase-scrypt\$/);
        const audit = await db.query<{ action: string }>("select action from audit_log order by id");
        expect(audit.rows.map((r) => r.action)).toEqual([
          "user.imported",
          "user.import_completed",
          "user.import_completed",
        ]);
      } finally {
        await db.close();
      }
    },
  );
});
