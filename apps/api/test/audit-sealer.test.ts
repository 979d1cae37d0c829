import { spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { DEMO_WORKBOOKS } from "@portal/contracts/demo";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { AUDIT_ACTIONS } from "../src/audit/actions.ts";
import { createAuditAppender, recordAudit } from "../src/audit/audit.ts";
import { auditChainKey, chainHash, useAuditChainKey, verifyAuditChain } from "../src/audit/chain.ts";
import { sealAuditChain } from "../src/audit/sealer.ts";
import { fromPostgres, type Database, type DatabaseHandle } from "../src/db/client.ts";
import { rows } from "../src/db/rows.ts";
import { auditChainHead, auditLog } from "../src/db/schema.ts";
import { MisconfigurationError } from "../src/lib/dependency-faults.ts";
import { createTestApp, headersFor } from "./support/app.ts";
import {
  idAt,
  pgliteBefore,
  rowAt,
  sealAll,
  sealedIdAt,
  sealedPositions,
  verifyTampered,
} from "./support/audit-seals.ts";
import { createScratchDatabase, createTestDatabase } from "./support/database.ts";
import { ADMIN, portalClient, startCluster } from "./instances/cluster.ts";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const SERVER_URL = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const SECRET = "audit-sealer-test-key-0123456789-abcdefghij";
const key = auditChainKey(SECRET);
useAuditChainKey(key);

const event = (i: number) =>
  ({
    action: AUDIT_ACTIONS[i % AUDIT_ACTIONS.length]!,
    outcome: "success",
    actorEmail: `Person${i}@Firm.example`,
    targetType: "client",
    targetId: String(i),
    details: { i, nested: { b: [i, "x"], a: null } },
  }) as const;

const count = async (db: Database, where = sql`true`) =>
  rows<{ n: number }>(await db.execute(sql`select count(*)::int as n from audit_log where ${where}`))[0]!.n;

/** Rows written inside transactions, every third rolled back; returns how many committed. */
async function writeInTransactions(db: Database, n: number, offset = 0): Promise<number> {
  const results = await Promise.allSettled(
    Array.from({ length: n }, (_, i) =>
      db.transaction(async (tx) => {
        await recordAudit(tx, event(offset + i));
        if (i % 3 === 0) throw new Error("rolled back on purpose");
      }),
    ),
  );
  return results.filter((r) => r.status === "fulfilled").length;
}

describe("the sealer", () => {
  let database: DatabaseHandle;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database.close();
  });

  it("seals every committed row once, in one order, and never a rolled-back one", async () => {
    const db = database.db;
    for (let i = 0; i < 10; i += 1) await recordAudit(db, event(i));
    const appender = createAuditAppender(db, { writers: 4, maxBatch: 3 });
    await Promise.all(Array.from({ length: 40 }, (_, i) => appender.record(event(i))));
    const committed = 50 + (await writeInTransactions(db, 30));
    expect(committed).toBe(70);
    expect(await count(db)).toBe(70);
    expect(await verifyAuditChain(db, key)).toMatchObject({ ok: true, rowsChecked: 0, unsealedRows: 70 });

    expect(await sealAll(db)).toBe(70);
    expect(await sealAuditChain(db)).toBe(0);
    const positions = await sealedPositions(db);
    expect(positions.map((p) => p.seq)).toEqual(Array.from({ length: 70 }, (_, i) => i + 1));
    const ids = (await db.select({ id: auditLog.id }).from(auditLog)).map((r) => r.id).sort((a, b) => a - b);
    expect(positions.map((p) => p.id).sort((a, b) => a - b)).toEqual(ids);
    const [head] = await db.select().from(auditChainHead);
    const summary = await verifyAuditChain(db, key);
    expect(summary).toMatchObject({ ok: true, rowsChecked: 70, unsealedRows: 0, lastSeq: 70 });
    expect(head).toMatchObject({ seq: 70, hash: summary.lastHash, keyId: key.id });

    // More rows, a second round: the chain continues from the head.
    await writeInTransactions(db, 6, 100);
    expect(await sealAll(db)).toBe(4);
    expect(await verifyAuditChain(db, key)).toMatchObject({ ok: true, rowsChecked: 74, lastSeq: 74 });
  });

  it("finds a changed, copied or forged row before its seal, and keeps a row the sealer cannot find", async () => {
    const db = database.db;
    for (let i = 0; i < 3; i += 1) await recordAudit(db, event(200 + i));
    const unsealed = await db
      .select()
      .from(auditLog)
      .where(sql`${auditLog.targetId} in ('200', '201', '202')`);
    expect(unsealed).toHaveLength(3);
    const [first] = unsealed.sort((a, b) => a.id - b.id);
    expect(await verifyAuditChain(db, key)).toMatchObject({ ok: true, rowsChecked: 74, unsealedRows: 3 });

    const changed = await verifyTampered(
      db,
      key,
      sql`update audit_log set outcome = 'failure' where id = ${first!.id}`,
    );
    expect(changed.firstBad).toMatchObject({ id: first!.id, seq: null });
    expect(changed.firstBad!.reason).toMatch(/do not match its hash/);

    // A sealed row copied with its MAC under a new id: the MAC covers the id.
    const sealed = await rowAt(db, 5);
    const copy = await verifyTampered(
      db,
      key,
      sql`insert into audit_log (occurred_at, actor_email, action, outcome, target_type, target_id, details, row_mac)
          select occurred_at, actor_email, action, outcome, target_type, target_id, details, row_mac
          from audit_log where id = ${sealed.id}`,
    );
    expect(copy.firstBad!.id).toBeGreaterThan(first!.id);
    expect(copy.firstBad!.reason).toMatch(/do not match its hash/);

    // The same id twice (the primary key dropped), before the seal.
    const twin = await verifyTampered(
      db,
      key,
      sql`alter table audit_log drop constraint audit_log_pkey`,
      sql`insert into audit_log (id, occurred_at, actor_email, action, outcome, target_type, target_id, details, row_mac)
          overriding system value
          select id, occurred_at, actor_email, action, outcome, target_type, target_id, details, row_mac
          from audit_log where id = ${first!.id}`,
    );
    expect(twin.firstBad).toMatchObject({ id: first!.id });
    expect(twin.firstBad!.reason).toMatch(/another row already has its id/);

    const forged = await verifyTampered(
      db,
      key,
      sql`insert into audit_log (action, outcome, row_mac) values ('client.deleted', 'success', ${"0".repeat(64)})`,
    );
    expect(forged.firstBad!.id).toBeGreaterThan(first!.id);
    expect(forged.firstBad!.reason).toMatch(/not written by the portal/);

    // A row moved out of the sealer's sight (its transaction id set back) is not lost: verify still
    // checks and counts it, and the chain holds.
    const hidden = await verifyTampered(db, key, sql`update audit_log set xid = '3' where id = ${first!.id}`);
    expect(hidden).toMatchObject({ ok: true, unsealedRows: 3 });
    expect(await verifyAuditChain(db, key)).toMatchObject({ ok: true, unsealedRows: 3 });
    expect(await sealAll(db)).toBe(3);
  });

  it("names a deleted seal, a changed link and a forged seal", async () => {
    const db = database.db;
    const head = 77;
    expect(await verifyAuditChain(db, key)).toMatchObject({ ok: true, lastSeq: head });
    const firstSeals = rows<{ first_seq: number; n: number }>(
      await db.execute(
        sql`select first_seq::int, cardinality(row_ids) as n from audit_seals order by first_seq`,
      ),
    );
    expect(firstSeals.length).toBeGreaterThanOrEqual(2);
    const [one, two] = firstSeals as [{ first_seq: number; n: number }, { first_seq: number; n: number }];
    const deleted = await verifyTampered(
      db,
      key,
      sql`delete from audit_seals where first_seq = ${one.first_seq}`,
    );
    expect(deleted.firstBad).toMatchObject({ id: await idAt(db, two.first_seq), seq: two.first_seq });
    expect(deleted.firstBad!.reason).toMatch(new RegExp(`position 1–${one.n} before it are missing`));

    const link = await verifyTampered(
      db,
      key,
      sql`update audit_seals set row_hashes[3] = ${"f".repeat(64)} where first_seq = ${one.first_seq}`,
    );
    expect(link.firstBad).toMatchObject({ id: await idAt(db, 3), seq: 3 });
    expect(link.firstBad!.reason).toMatch(/not the row sealed at this chain position/);

    const reordered = await verifyTampered(
      db,
      key,
      sealedIdAt(8, await idAt(db, 9)),
      sealedIdAt(9, await idAt(db, 8)),
    );
    expect(reordered.firstBad).toMatchObject({ id: await idAt(db, 9), seq: 8 });

    const beyond = await verifyTampered(
      db,
      key,
      sql`insert into audit_seals (first_seq, row_ids, row_hashes) values (${head + 1}, array[1]::bigint[], array['x'])`,
    );
    expect(beyond.firstBad).toMatchObject({ seq: head + 1 });
    expect(beyond.firstBad!.reason).toMatch(/beyond the chain head: not sealed by the portal/);

    // A seal made without the key, with the head moved on to it: its link gives it away.
    const last = await rowAt(db, head);
    const withHead = await verifyTampered(
      db,
      key,
      sql`insert into audit_seals (first_seq, row_ids, row_hashes) values (${head + 1}, array[${last.id}]::bigint[], array[${"0".repeat(64)}])`,
      sql`update audit_chain_head set seq = ${head + 1}, hash = ${"0".repeat(64)}`,
    );
    expect(withHead.firstBad!.seq).toBe(head + 1);
    expect(withHead.firstBad!.reason).toMatch(/not the row sealed at this chain position/);

    const lastRowChanged = await verifyTampered(
      db,
      key,
      sql`update audit_log set details = '{}' where id = ${last.id}`,
    );
    expect(lastRowChanged.firstBad).toMatchObject({ id: last.id, seq: head });
    expect(await verifyAuditChain(db, key)).toMatchObject({ ok: true, lastSeq: head });
  });

  it("refuses to write or seal under a key other than the chain's", async () => {
    const db = database.db;
    await recordAudit(db, event(300));
    useAuditChainKey(auditChainKey("another-secret-another-secret-0123"));
    try {
      const write = await recordAudit(db, event(301)).catch((error: unknown) => error);
      expect(write).toBeInstanceOf(MisconfigurationError);
      expect(write).toMatchObject({ setting: "AUDIT_KEY", message: expect.stringMatching(/another key/) });
      const seal = await sealAuditChain(db).catch((error: unknown) => error);
      expect(seal).toBeInstanceOf(MisconfigurationError);
    } finally {
      useAuditChainKey(key);
    }
    expect(await count(db, sql`target_id = '301'`)).toBe(0);
    expect(await sealAll(db)).toBe(1);
    expect(await verifyAuditChain(db, key)).toMatchObject({ ok: true, unsealedRows: 0 });
  });

  it("is run by the app, and what is left is sealed when the app closes", { timeout: 30_000 }, async () => {
    const t = await createTestApp(database, { AUDIT_KEY: SECRET });
    try {
      const client = await headersFor(t, "client");
      // Refused requests are audited (access.denied) through the portal's own paths.
      for (let i = 0; i < 3; i += 1) {
        const res = await t.app.inject({ method: "GET", url: "/api/admin/clients", headers: client });
        expect(res.statusCode).toBe(403);
      }
      await vi.waitFor(
        async () =>
          expect(await verifyAuditChain(database.db, key)).toMatchObject({ ok: true, unsealedRows: 0 }),
        { timeout: 10_000, interval: 100 },
      );
      for (let i = 0; i < 5; i += 1) await recordAudit(database.db, event(400 + i));
    } finally {
      await t.app.close();
    }
    const summary = await verifyAuditChain(database.db, key);
    expect(summary).toMatchObject({ ok: true, unsealedRows: 0 });
    expect(summary.rowsChecked).toBe(await count(database.db));
  });
});

describe("upgrading from the first chain (decision 007)", () => {
  /** A link of the first chain as its appenders wrote it: the row carries its position and hash. */
  async function appendFirstChainLink(db: Database, i: number) {
    const [head] = await db
      .select({ seq: auditChainHead.seq, hash: auditChainHead.hash })
      .from(auditChainHead)
      .where(eq(auditChainHead.id, 1));
    const fields = {
      occurredAt: new Date(),
      actorUserId: null,
      actorEmail: `person${i}@firm.example`,
      action: "client.updated",
      outcome: "success",
      targetType: "client",
      targetId: String(i),
      ip: null,
      userAgent: null,
      requestId: null,
      before: null,
      after: null,
      details: { i },
    };
    const seq = head!.seq + 1;
    const hash = chainHash(key, seq, head!.hash, fields);
    await db.execute(sql`
      insert into audit_log (occurred_at, actor_email, action, outcome, target_type, target_id, details, chain_seq, chain_hash)
      values (${fields.occurredAt.toISOString()}, ${fields.actorEmail}, ${fields.action}, ${fields.outcome},
              ${fields.targetType}, ${fields.targetId}, ${JSON.stringify(fields.details)}::jsonb, ${seq}, ${hash})`);
    await db.execute(sql`
      update audit_chain_head set seq = ${seq}, hash = ${hash}, key_id = coalesce(key_id, ${key.id}) where id = 1`);
  }

  it("verifies the first chain's rows, then the sealed ones after them, also interleaved", async () => {
    const handle = await pgliteBefore("audit_seals");
    try {
      for (let i = 0; i < 4; i += 1) await appendFirstChainLink(handle.db, i);
      await handle.migrate();
      for (let i = 0; i < 3; i += 1) await recordAudit(handle.db, event(i));
      expect(await sealAll(handle.db)).toBe(3);
      // An instance still on the first chain's code appends during a rolling upgrade; then new rows again.
      await appendFirstChainLink(handle.db, 4);
      for (let i = 3; i < 5; i += 1) await recordAudit(handle.db, event(i));
      expect(await sealAll(handle.db)).toBe(2);
      expect(await verifyAuditChain(handle.db, key)).toMatchObject({
        ok: true,
        rowsChecked: 10,
        lastSeq: 10,
      });

      const [old] = await handle.db.select().from(auditLog).where(eq(auditLog.chainSeq, 2));
      const oldChanged = await verifyTampered(
        handle.db,
        key,
        sql`update audit_log set outcome = 'failure' where id = ${old!.id}`,
      );
      expect(oldChanged.firstBad).toMatchObject({ id: old!.id, seq: 2 });
      const sealed = await rowAt(handle.db, 9);
      const newChanged = await verifyTampered(
        handle.db,
        key,
        sql`update audit_log set outcome = 'failure' where id = ${sealed.id}`,
      );
      expect(newChanged.firstBad).toMatchObject({ id: sealed.id, seq: 9 });
      const interleaved = await handle.db.select().from(auditLog).where(eq(auditLog.chainSeq, 8));
      expect(interleaved).toHaveLength(1);
    } finally {
      await handle.close();
    }
  });
});

/** A migrated scratch database on the real PostgreSQL server, with `extra` more connection pools on it. */
async function scratchPostgres() {
  const scratch = await createScratchDatabase(SERVER_URL, "portal_sealer");
  const handles = [fromPostgres(scratch.url), fromPostgres(scratch.url)] as const;
  await handles[0].migrate();
  return {
    url: scratch.url,
    handles,
    async drop() {
      await Promise.all(handles.map((h) => h.close()));
      await scratch.drop();
    },
  };
}

describe("several instances on one PostgreSQL database", () => {
  it(
    "two app instances write and seal at once: one chain, every row sealed once",
    { timeout: 90_000 },
    async () => {
      const scratch = await scratchPostgres();
      try {
        const [a, b] = await Promise.all(
          scratch.handles.map((handle) =>
            createTestApp(handle, { AUDIT_KEY: SECRET, EMBED_RATE_LIMIT_PER_MINUTE: "100000" }),
          ),
        );
        try {
          const client = await headersFor(a!, "client");
          const apps = [a!, b!];
          // A workbook the client is not given: each answer is a 404 with its embed.denied row (group commit).
          const embeds = Array.from({ length: 160 }, (_, i) =>
            apps[i % 2]!.app.inject({
              method: "POST",
              url: "/api/sigma/provision-and-embed",
              headers: { ...client, "content-type": "application/json" },
              payload: { workbookId: `not-theirs-${i}` },
            }),
          );
          const transactions = scratch.handles.map((h, i) => writeInTransactions(h.db, 30, i * 100));
          // More sealers than the apps' own, all at once.
          const sealers = scratch.handles.flatMap((h) =>
            Array.from({ length: 5 }, () => sealAuditChain(h.db)),
          );
          const answers = await Promise.all(embeds);
          expect(answers.map((r) => r.statusCode)).toEqual(Array(160).fill(404));
          expect(await Promise.all(transactions)).toEqual([20, 20]);
          const rounds = await Promise.all(sealers);
          expect(rounds.every((r) => r === "busy" || typeof r === "number")).toBe(true);
        } finally {
          await Promise.all([a!.app.close(), b!.app.close()]);
        }
        const db = scratch.handles[0].db;
        expect(await count(db, sql`action = 'embed.denied'`)).toBe(160);
        const total = await count(db);
        const summary = await verifyAuditChain(db, key);
        expect(summary).toMatchObject({ ok: true, unsealedRows: 0, rowsChecked: total, lastSeq: total });
        const positions = await sealedPositions(db);
        expect(positions.map((p) => p.seq)).toEqual(Array.from({ length: total }, (_, i) => i + 1));
        expect(new Set(positions.map((p) => p.id)).size).toBe(total);
      } finally {
        await scratch.drop();
      }
    },
  );

  it(
    "seals a row committed late, with a lower id than rows sealed before it",
    { timeout: 60_000 },
    async () => {
      const scratch = await scratchPostgres();
      try {
        const [one, two] = scratch.handles;
        // The first row names the chain's key in the head; a transaction doing so would hold the head meanwhile.
        await recordAudit(one.db, event(0));
        let release!: () => void;
        const held = new Promise<void>((resolve) => (release = resolve));
        let written!: () => void;
        const inTransaction = new Promise<void>((resolve) => (written = resolve));
        const late = one.db.transaction(async (tx) => {
          await recordAudit(tx, { ...event(1), targetId: "late" });
          written();
          await held;
        });
        await inTransaction;
        for (let i = 0; i < 5; i += 1) await recordAudit(two.db, event(10 + i));
        expect(await sealAll(two.db)).toBe(6);
        release();
        await late;
        expect(await sealAll(two.db)).toBe(1);
        const [lateRow] = await two.db.select().from(auditLog).where(eq(auditLog.targetId, "late"));
        const positions = await sealedPositions(two.db);
        expect(positions.at(-1)).toEqual({ seq: 7, id: lateRow!.id });
        expect(Math.min(...positions.slice(1, 6).map((p) => p.id))).toBeGreaterThan(lateRow!.id);
        expect(await verifyAuditChain(two.db, key)).toMatchObject({
          ok: true,
          rowsChecked: 7,
          unsealedRows: 0,
        });
      } finally {
        await scratch.drop();
      }
    },
  );

  /** Starts an instance that writes audit rows and is then killed; resolves with the ids it committed. */
  function startDoomedWriter(url: string, mode: "written" | "open-transaction" | "sealing") {
    const child = spawn(
      process.execPath,
      ["--import", "tsx", path.join(root, "apps/api/test/support/audit-crash-writer.ts")],
      {
        cwd: root,
        env: { ...process.env, DATABASE_URL: url, AUDIT_KEY: SECRET, MODE: mode, ROWS: "20" },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let output = "";
    const ready = new Promise<number[]>((resolve, reject) => {
      child.stdout!.on("data", (chunk: Buffer) => {
        output += chunk.toString();
        const line = /ready ([\d,]+)/.exec(output);
        if (line) resolve(line[1]!.split(",").map(Number));
      });
      child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
      child.once("exit", (code) =>
        reject(new Error(`the writer exited (${code}) before it was killed:\n${output}`)),
      );
    });
    const kill = () =>
      new Promise<void>((resolve) => {
        child.once("exit", () => resolve());
        child.kill("SIGKILL");
      });
    return { ready, kill };
  }

  it(
    "rows of an instance killed before its sealer ran are sealed by another",
    { timeout: 60_000 },
    async () => {
      const scratch = await scratchPostgres();
      try {
        const db = scratch.handles[0].db;
        const writer = startDoomedWriter(scratch.url, "written");
        const ids = await writer.ready;
        await writer.kill();
        expect(ids).toHaveLength(21);
        expect(await verifyAuditChain(db, key)).toMatchObject({ ok: true, rowsChecked: 0, unsealedRows: 21 });
        expect(await sealAll(db)).toBe(21);
        expect((await sealedPositions(db)).map((p) => p.id).sort((x, y) => x - y)).toEqual(ids);
        expect(await verifyAuditChain(db, key)).toMatchObject({ ok: true, rowsChecked: 21, unsealedRows: 0 });
      } finally {
        await scratch.drop();
      }
    },
  );

  it(
    "an instance killed in the middle of a seal holds nothing: its lock goes, its half seal too",
    { timeout: 60_000 },
    async () => {
      const scratch = await scratchPostgres();
      try {
        const db = scratch.handles[0].db;
        const writer = startDoomedWriter(scratch.url, "sealing");
        const ids = await writer.ready;
        // While it holds the head, another sealer skips its round instead of forking the chain.
        expect(await sealAuditChain(db)).toBe("busy");
        await writer.kill();
        expect(await sealAll(db)).toBe(21);
        expect((await sealedPositions(db)).map((p) => p.id).sort((x, y) => x - y)).toEqual(ids);
        expect(await count(db, sql`details ? 'uncommitted'`)).toBe(0);
        expect(await verifyAuditChain(db, key)).toMatchObject({ ok: true, rowsChecked: 21, unsealedRows: 0 });
      } finally {
        await scratch.drop();
      }
    },
  );

  it("a row in a transaction the kill ends is never written nor sealed", { timeout: 60_000 }, async () => {
    const scratch = await scratchPostgres();
    try {
      const db = scratch.handles[0].db;
      const writer = startDoomedWriter(scratch.url, "open-transaction");
      await writer.ready;
      expect(await sealAll(db)).toBe(21);
      await writer.kill();
      expect(await sealAuditChain(db)).toBe(0);
      expect(await count(db)).toBe(21);
      expect(await verifyAuditChain(db, key)).toMatchObject({ ok: true, rowsChecked: 21, unsealedRows: 0 });
    } finally {
      await scratch.drop();
    }
  });
});

describe("two portal processes behind a load balancer", () => {
  it(
    "the chain verifies after a mixed load with one instance killed mid-run",
    { timeout: 240_000 },
    async () => {
      const cluster = await startCluster({
        instances: 2,
        env: { AUDIT_KEY: SECRET, EMBED_RATE_LIMIT_PER_MINUTE: "100000", LOG_LEVEL: "silent" },
      });
      try {
        const admin = portalClient(cluster.publicUrl);
        await admin.signIn(ADMIN.email, ADMIN.password);
        const [demo] = DEMO_WORKBOOKS;
        const workbook = (await (
          await admin.call("POST", "/api/admin/addworkbook", {
            workbook_name: demo!.workbookName,
            team_name: demo!.teamName,
          })
        ).json()) as { data: { id: number } };
        const person = { email: "sealed.client@example.com", password: "beacon-marble-orchard-52" };
        const added = await admin.call("POST", "/api/admin/addclient", {
          clientId: "CL-SEALED",
          firstName: "Sealed",
          lastName: "Client",
          email: person.email,
          password: person.password,
          role: "client",
          privilege: "View",
          workbookIds: [workbook.data.id],
        });
        expect(added.status).toBe(201);
        const client = portalClient(cluster.publicUrl);
        await client.signIn(person.email, person.password);

        // Embeds (group commit), refusals, failed sign-ins and admin writes (in transactions), at once.
        const answered = { embeds: 0 };
        let stop = false;
        const lane = async (work: () => Promise<Response>, embeds = false) => {
          while (!stop) {
            const res = await work().catch(() => null);
            await res?.arrayBuffer().catch(() => undefined);
            if (embeds && res?.status === 200) answered.embeds += 1;
          }
        };
        let n = 0;
        const lanes = [
          ...Array.from({ length: 4 }, () =>
            lane(
              () => client.call("POST", "/api/sigma/provision-and-embed", { workbookId: demo!.workbookName }),
              true,
            ),
          ),
          lane(() => client.call("GET", "/api/admin/clients")),
          lane(() =>
            fetch(`${cluster.publicUrl}/api/auth/sign-in/email`, {
              method: "POST",
              headers: { "content-type": "application/json", origin: cluster.publicUrl },
              body: JSON.stringify({
                email: `nobody${(n += 1)}@example.com`,
                password: "not-a-password-here",
              }),
            }),
          ),
          lane(() =>
            admin.call("POST", "/api/admin/addworkbook", {
              workbook_name: `Sealed ${(n += 1)}`,
              team_name: "Sealed",
            }),
          ),
        ];
        await new Promise((resolve) => setTimeout(resolve, 3_000));
        await cluster.stopInstance(1, "SIGKILL");
        await new Promise((resolve) => setTimeout(resolve, 2_000));
        stop = true;
        await Promise.all(lanes);

        const handle = fromPostgres(cluster.databaseUrl);
        try {
          const chainKey = auditChainKey(cluster.auditKeySecret);
          expect(chainKey.id).toBe(key.id);
          // The surviving instance's sealer seals the killed one's rows too.
          await vi.waitFor(
            async () =>
              expect(await verifyAuditChain(handle.db, chainKey)).toMatchObject({
                ok: true,
                unsealedRows: 0,
              }),
            { timeout: 15_000, interval: 250 },
          );
          const summary = await verifyAuditChain(handle.db, chainKey);
          expect(summary.rowsChecked).toBe(await count(handle.db));
          expect(answered.embeds).toBeGreaterThan(0);
          expect(await count(handle.db, sql`action = 'embed.issued'`)).toBeGreaterThanOrEqual(
            answered.embeds,
          );
        } finally {
          await handle.close();
        }
      } finally {
        await cluster.close();
      }
    },
  );
});
