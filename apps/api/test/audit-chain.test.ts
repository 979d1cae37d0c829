import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { asc, sql, type SQL } from "drizzle-orm";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AUDIT_ACTIONS } from "../src/audit/actions.ts";
import { loadConfig } from "../src/config.ts";
import { createAuditAppender, recordAudit } from "../src/audit/audit.ts";
import { sealAuditChain } from "../src/audit/sealer.ts";
import { auditChainKey, useAuditChainKey, verifyAuditChain } from "../src/audit/chain.ts";
import { fromPostgres, openDatabase, type DatabaseHandle } from "../src/db/client.ts";
import { auditChainHead, auditLog } from "../src/db/schema.ts";
import { createTestDatabase } from "./support/database.ts";
import {
  idAt,
  pgliteBefore,
  rowAt,
  sealAll,
  sealedIdAt,
  sealedPositions,
  verifyTampered,
} from "./support/audit-seals.ts";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const tsx = path.join(root, "node_modules/tsx/dist/cli.mjs");
const SERVER_URL = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

// One key for the whole file: the CLI test hands the same secret to `audit:verify` as AUDIT_KEY.
const SECRET = "audit-chain-test-key-0123456789-abcdefghij";
const key = auditChainKey(SECRET);
useAuditChainKey(key);

let database: DatabaseHandle;

beforeAll(async () => {
  database = await createTestDatabase();
});

afterAll(async () => {
  await database.close();
});

const event = (i: number) =>
  ({
    action: AUDIT_ACTIONS[i % AUDIT_ACTIONS.length]!,
    outcome: "success",
    actorEmail: `Person${i}@Firm.example`,
    targetType: "client",
    targetId: String(i),
    userAgent: i % 7 === 0 ? "broken \ud800 agent" : "vitest",
    details: { z: i, a: { nested: [i, "x"], b: null }, when: new Date(0) },
  }) as const;

/** Superuser tampering behind the triggers, verified inside the same transaction, then undone. */
const verifyAfter = (...tamper: SQL[]) => verifyTampered(database.db, key, ...tamper);

describe("audit hash chain", () => {
  let committed = 0;

  it("verifies a fresh chain written by single calls, the group-commit appender and parallel transactions", async () => {
    expect(await verifyAuditChain(database.db, key)).toMatchObject({ ok: true, rowsChecked: 0 });
    for (let i = 0; i < 60; i += 1) await recordAudit(database.db, event(i));
    const appender = createAuditAppender(database.db, { writers: 4, maxBatch: 7 });
    await Promise.all(Array.from({ length: 150 }, (_, i) => appender.record(event(i))));
    // Parallel transactions that each do other work around their audit row; every fifth rolls back.
    const results = await Promise.allSettled(
      Array.from({ length: 60 }, (_, i) =>
        database.db.transaction(async (tx) => {
          await tx.execute(sql`select pg_sleep(${(i % 3) / 1000})`);
          await recordAudit(tx, event(i));
          await recordAudit(tx, event(i + 1));
          if (i % 5 === 0) throw new Error("rolled back on purpose");
        }),
      ),
    );
    expect(results.filter((r) => r.status === "rejected")).toHaveLength(12);
    committed = 60 + 150 + 48 * 2;
    // Written, each under its own MAC, and not in the chain until sealed (decision 023).
    expect(await verifyAuditChain(database.db, key)).toMatchObject({
      ok: true,
      rowsChecked: 0,
      unsealedRows: committed,
    });
    await sealAll(database.db);
    const summary = await verifyAuditChain(database.db, key);
    expect(summary).toMatchObject({
      ok: true,
      rowsChecked: committed,
      unchainedRows: 0,
      unsealedRows: 0,
      lastSeq: committed,
    });
    const [head] = await database.db.select().from(auditChainHead);
    expect(head).toMatchObject({ seq: committed, hash: summary.lastHash, keyId: key.id });
  });

  it("names the row after one a superuser deleted behind the trigger", async () => {
    const next = await rowAt(database.db, 11);
    const summary = await verifyAfter(sql`delete from audit_log where id = ${await idAt(database.db, 10)}`);
    expect(summary.ok).toBe(false);
    expect(summary.firstBad).toMatchObject({ id: next.id, seq: 11 });
    expect(summary.firstBad!.reason).toMatch(/position 10 before it are missing/);
    expect(summary.rowsChecked).toBe(9);
  });

  it("notices the newest rows deleted, and a deleted head", async () => {
    const newest = await Promise.all([0, 1, 2].map((i) => idAt(database.db, committed - i)));
    const tail = await verifyAfter(sql`delete from audit_log where id = any(${sql.param(newest)}::bigint[])`);
    expect(tail.firstBad).toMatchObject({ id: null, seq: committed - 2 });
    expect(tail.firstBad!.reason).toMatch(/last 3 row\(s\) of the chain/);
    const noHead = await verifyAfter(sql`delete from audit_chain_head`);
    expect(noHead.firstBad!.reason).toMatch(/audit_chain_head is missing/);
  });

  it("names a row whose field was changed, or whose hash was recomputed without the key", async () => {
    const row = await rowAt(database.db, 42);
    const changed = await verifyAfter(sql`update audit_log set outcome = 'failure' where id = ${row.id}`);
    expect(changed.firstBad).toMatchObject({ id: row.id, seq: 42 });
    expect(changed.firstBad!.reason).toMatch(/do not match its hash/);
    const json = await verifyAfter(
      sql`update audit_log set details = jsonb_set(details, '{z}', '0') where id = ${row.id}`,
    );
    expect(json.firstBad).toMatchObject({ id: row.id, seq: 42 });
    const when = await verifyAfter(
      sql`update audit_log set occurred_at = occurred_at + interval '1 microsecond' where id = ${row.id}`,
    );
    expect(when.firstBad).toMatchObject({ id: row.id, seq: 42 });
    // Swapping two rows' positions (held by their seal) breaks the chain at the first of them.
    const other = await rowAt(database.db, 43);
    const swapped = await verifyAfter(sealedIdAt(42, other.id), sealedIdAt(43, row.id));
    expect(swapped.firstBad).toMatchObject({ id: other.id, seq: 42 });
  });

  it("names a forged row, inserted at the end, in the middle or outside the chain", async () => {
    const forgedAtEnd = await verifyAfter(sql`
      insert into audit_log (action, outcome, chain_seq, chain_hash)
      values ('client.deleted', 'success', ${committed + 1}, ${"0".repeat(64)})`);
    expect(forgedAtEnd.firstBad).toMatchObject({ seq: committed + 1 });
    expect(forgedAtEnd.firstBad!.reason).toMatch(/beyond the chain head/);
    const maxId = await database.db.execute(sql`select max(id)::int + 1 as id from audit_log`);
    const [forgedId] = (maxId as unknown as { rows: { id: number }[] }).rows;

    // With the head moved on too, the forged row's hash is what gives it away.
    const withHead = await verifyAfter(
      sql`insert into audit_log (action, outcome, chain_seq, chain_hash)
          values ('client.deleted', 'success', ${committed + 1}, ${"0".repeat(64)})`,
      sql`update audit_chain_head set seq = ${committed + 1}, hash = ${"0".repeat(64)}`,
    );
    expect(withHead.firstBad!.seq).toBe(committed + 1);
    expect(withHead.firstBad!.id).toBeGreaterThanOrEqual(forgedId!.id);
    expect(withHead.firstBad!.reason).toMatch(/do not match its hash/);

    const middle = await rowAt(database.db, 20);
    const duplicate = await verifyAfter(
      sql`drop index audit_log_chain_seq_idx`,
      sql`insert into audit_log (action, outcome, chain_seq, chain_hash)
          select 'client.deleted', 'success', 20, row_hashes[20 - first_seq + 1] from audit_seals
          where first_seq <= 20 order by first_seq desc limit 1`,
    );
    expect(duplicate.firstBad).toMatchObject({ seq: 20 });
    expect(duplicate.firstBad!.id).toBeGreaterThan(middle.id);
    expect(duplicate.firstBad!.reason).toMatch(/another row already holds/);

    const unchained = await verifyAfter(
      sql`alter table audit_log drop constraint audit_log_chained`,
      sql`insert into audit_log (action, outcome) values ('client.deleted', 'success')`,
    );
    expect(unchained.firstBad!.reason).toMatch(/no place in the chain/);
    expect(await verifyAuditChain(database.db, key)).toMatchObject({ ok: true, rowsChecked: committed });
  });

  it("tells a chain verified with another key from a tampered one", async () => {
    const summary = await verifyAuditChain(database.db, auditChainKey("another-secret-another-secret-0123"));
    expect(summary.ok).toBe(false);
    expect(summary.firstBad!.reason).toMatch(/written with another key/);
  });

  it("refuses rows without a place in the chain, and a head moved backwards, even from the owner", async () => {
    await expect(
      database.db.execute(sql`insert into audit_log (action, outcome) values ('client.deleted', 'success')`),
    ).rejects.toThrow();
    await expect(database.db.execute(sql`update audit_chain_head set seq = 0`)).rejects.toThrow();
    await expect(database.db.execute(sql`delete from audit_chain_head`)).rejects.toThrow();
    await expect(database.db.execute(sql`update audit_seals set row_hashes = row_hashes`)).rejects.toThrow();
    await expect(database.db.execute(sql`delete from audit_seals`)).rejects.toThrow();
  });
});

describe("the audit chain key", () => {
  it("is AUDIT_KEY when set, else derived from the auth secret, and never the secret itself", () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), "audit-key-"));
    const derived = loadConfig({ DATA_DIR: dataDir });
    expect(derived.auditKeySecret).toBe(derived.authSecret);
    const chainKey = auditChainKey(derived.auditKeySecret);
    expect(chainKey.key.toString("base64url")).not.toBe(derived.authSecret);
    expect(chainKey.key).toHaveLength(32);
    expect(auditChainKey(derived.auditKeySecret).id).toBe(chainKey.id);
    const own = loadConfig({ DATA_DIR: dataDir, AUDIT_KEY: SECRET });
    expect(own.auditKeySecret).toBe(SECRET);
    expect(auditChainKey(own.auditKeySecret).id).not.toBe(chainKey.id);
    expect(() => loadConfig({ DATA_DIR: dataDir, AUDIT_KEY: "too-short" })).toThrow(
      /AUDIT_KEY: must be at least 32 characters/,
    );
  });
});

describe("audit hash chain across processes", () => {
  it(
    "keeps one order when two connection pools append in parallel transactions",
    { timeout: 60_000 },
    async () => {
      const scratch = await scratchPostgres();
      try {
        const other = fromPostgres(scratch.url);
        try {
          const writes = [scratch.handle, other].flatMap((handle, p) =>
            Array.from({ length: 40 }, (_, i) =>
              handle.db.transaction(async (tx) => {
                await recordAudit(tx, event(i));
                if ((i + p) % 4 === 0) throw new Error("rolled back on purpose");
                await recordAudit(tx, event(i + 1));
              }),
            ),
          );
          const appenders = [scratch.handle, other].map((handle) =>
            createAuditAppender(handle.db, { writers: 4, maxBatch: 5 }),
          );
          const appended = appenders.flatMap((a) => Array.from({ length: 60 }, (_, i) => a.record(event(i))));
          // Both pools seal while the rows are being written, as two instances' sealers do.
          let writing = true;
          const sealing = [scratch.handle, other].map(async (handle) => {
            while (writing) await sealAuditChain(handle.db);
          });
          const results = await Promise.allSettled([...writes, ...appended]);
          writing = false;
          await Promise.all(sealing);
          await Promise.all([sealAll(scratch.handle.db), sealAll(other.db)]);
          expect(results.filter((r) => r.status === "rejected")).toHaveLength(20);
          expect(await verifyAuditChain(other.db, key)).toMatchObject({
            ok: true,
            rowsChecked: 60 * 2 + 120,
            unsealedRows: 0,
          });
          const positions = await sealedPositions(scratch.handle.db);
          expect(positions.map((p) => p.seq)).toEqual(Array.from({ length: 240 }, (_, i) => i + 1));
          const ids = await scratch.handle.db
            .select({ id: auditLog.id })
            .from(auditLog)
            .orderBy(asc(auditLog.id));
          expect(positions.map((p) => p.id).sort((a, b) => a - b)).toEqual(ids.map((r) => r.id));
        } finally {
          await other.close();
        }
      } finally {
        await scratch.drop();
      }
    },
  );
});

describe("audit rows from before the chain", () => {
  it("are counted as unchained, and the chain starts after them", async () => {
    const handle = await pgliteBefore("audit_hash_chain");
    try {
      await handle.db.execute(sql`
        insert into audit_log (action, outcome) values ('auth.sign_in', 'success'), ('auth.sign_out', 'success')`);
      await handle.migrate();
      for (let i = 0; i < 5; i += 1) await recordAudit(handle.db, event(i));
      await sealAll(handle.db);
      expect(await verifyAuditChain(handle.db, key)).toMatchObject({
        ok: true,
        rowsChecked: 5,
        unchainedRows: 2,
      });
    } finally {
      await handle.close();
    }
  });
});

function runVerify(env: Record<string, string>) {
  return spawnSync(process.execPath, [tsx, path.join(root, "apps/api/src/scripts/audit-verify.ts")], {
    cwd: root,
    encoding: "utf8",
    timeout: 60_000,
    env: { PATH: process.env.PATH, ...env },
  });
}

describe("npm run audit:verify", () => {
  it(
    "passes on the portal's database, then fails naming the row after a superuser DELETE",
    { timeout: 120_000 },
    async () => {
      const dataDir = mkdtempSync(path.join(os.tmpdir(), "audit-verify-"));
      const env = { DATA_DIR: dataDir, AUDIT_KEY: SECRET };
      const empty = runVerify(env);
      expect(empty.status).toBe(2);
      expect(empty.stderr).toMatch(/run `npm start` once/);

      let handle = await openDatabase({ dataDir });
      await handle.migrate();
      for (let i = 0; i < 25; i += 1) await recordAudit(handle.db, event(i));
      await sealAll(handle.db);
      // Two more, not sealed yet (the portal stopped before its sealer's next round).
      for (let i = 25; i < 27; i += 1) await recordAudit(handle.db, event(i));
      const after = await rowAt(handle.db, 8);
      const seventh = await idAt(handle.db, 7);
      await handle.close();

      const ok = runVerify(env);
      expect(ok.stderr).toBe("");
      expect(ok.status).toBe(0);
      expect(ok.stdout).toMatch(/audit:verify: OK\. 25 chained row\(s\) verified \(positions 1–25\)/);
      expect(ok.stdout).toMatch(/2 row\(s\) written since the last seal verified against their own MAC/);

      const wrongKey = runVerify({ ...env, AUDIT_KEY: "not-the-key-not-the-key-not-the-key" });
      expect(wrongKey.status).toBe(1);
      expect(wrongKey.stderr).toMatch(/written with another key/);

      handle = await openDatabase({ dataDir });
      await handle.db.execute(sql`alter table audit_log disable trigger all`);
      await handle.db.execute(sql`delete from audit_log where id = ${seventh}`);
      await handle.db.execute(sql`alter table audit_log enable trigger all`);
      await handle.close();

      const broken = runVerify(env);
      expect(broken.status).toBe(1);
      expect(broken.stderr).toContain(
        `audit:verify: BROKEN at audit_log row id ${after.id} (chain position 8): the row(s) at chain position 7 before it are missing (deleted).`,
      );
      expect(broken.stderr).toContain("6 row(s) before it verified");
    },
  );
});

/** A scratch database on the real PostgreSQL server, migrated by its owner (the server's superuser). */
async function scratchPostgres() {
  const name = `portal_audit_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: SERVER_URL });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(SERVER_URL);
  url.pathname = `/${name}`;
  const handle = fromPostgres(url.toString());
  await handle.migrate();
  return {
    name,
    url: url.toString(),
    handle,
    async drop() {
      await handle.close();
      const cleanup = new pg.Client({ connectionString: SERVER_URL });
      await cleanup.connect();
      await cleanup.query(`drop database if exists ${name} with (force)`);
      await cleanup.end();
    },
  };
}

describe("running under a PostgreSQL role that does not own audit_log", () => {
  it(
    "the README's grants let the portal migrate-check and append, but never rewrite the trail",
    { timeout: 60_000 },
    async () => {
      const scratch = await scratchPostgres();
      const role = `portal_app_${randomBytes(4).toString("hex")}`;
      const owner = new pg.Client({ connectionString: scratch.url });
      await owner.connect();
      try {
        await owner.query(`create role ${role} login`);
        // The statements the README's security section gives, for a role named portal_app.
        const readme = readFileSync(path.join(root, "README.md"), "utf8");
        const block = /```sql\n(-- Run as the owner[\s\S]*?)```/.exec(readme)?.[1];
        expect(block).toBeDefined();
        const grants = block!.replaceAll("portal_app", role);
        await owner.query(grants);

        const appUrl = new URL(scratch.url);
        appUrl.username = role;
        const app = fromPostgres(appUrl.toString());
        try {
          await app.migrate(); // what the portal does at boot: nothing left to apply, and allowed
          await recordAudit(app.db, event(1));
          const appender = createAuditAppender(app.db);
          await Promise.all([appender.record(event(2)), appender.record(event(3))]);
          // The role seals too: every instance runs a sealer.
          expect(await sealAll(app.db)).toBe(3);
          expect(await verifyAuditChain(app.db, key)).toMatchObject({ ok: true, rowsChecked: 3 });

          const refused = async (statement: SQL, message: RegExp) => {
            const error = await app.db.execute(statement).then(
              () => null,
              (e: unknown) => e as { cause?: { message: string } },
            );
            expect(error, statement.queryChunks.join("")).not.toBeNull();
            expect(error!.cause?.message).toMatch(message);
          };
          await refused(
            sql`update audit_log set outcome = 'failure'`,
            /permission denied for table audit_log/,
          );
          await refused(sql`delete from audit_log`, /permission denied for table audit_log/);
          await refused(sql`truncate audit_log`, /permission denied for table audit_log/);
          await refused(sql`alter table audit_log disable trigger all`, /must be owner of table audit_log/);
          await refused(sql`alter table audit_log drop constraint audit_log_chained`, /must be owner/);
          await refused(sql`drop table audit_log`, /must be owner/);
          await refused(sql`delete from audit_chain_head`, /permission denied for table audit_chain_head/);
          await refused(sql`update audit_chain_head set seq = 0`, /only moves forward/);
          await refused(sql`alter table audit_chain_head disable trigger all`, /must be owner/);
          await refused(
            sql`update audit_seals set row_hashes = row_hashes`,
            /permission denied for table audit_seals/,
          );
          await refused(sql`delete from audit_seals`, /permission denied for table audit_seals/);
          await refused(sql`truncate audit_seals`, /permission denied for table audit_seals/);
          await refused(sql`alter table audit_seals disable trigger all`, /must be owner/);
          expect(await verifyAuditChain(app.db, key)).toMatchObject({ ok: true, rowsChecked: 3 });
        } finally {
          await app.close();
        }
      } finally {
        await owner.end();
        await scratch.drop();
        const cleanup = new pg.Client({ connectionString: SERVER_URL });
        await cleanup.connect();
        await cleanup.query(`drop role if exists ${role}`);
        await cleanup.end();
      }
    },
  );
});
