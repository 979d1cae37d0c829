import { cpSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq, sql, TransactionRollbackError, type SQL } from "drizzle-orm";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { verifyAuditChain, type AuditChainKey, type AuditChainSummary } from "../../src/audit/chain.ts";
import { sealAuditChain } from "../../src/audit/sealer.ts";
import {
  createPglite,
  fromPglite,
  MIGRATIONS_FOLDER,
  type Database,
  type DatabaseHandle,
  type Executor,
} from "../../src/db/client.ts";
import { rows } from "../../src/db/rows.ts";
import { auditLog } from "../../src/db/schema.ts";

/** Seals until nothing is left (what the app's sealer does over its rounds, and at close). */
export async function sealAll(db: Database): Promise<number> {
  let total = 0;
  for (let round = 0; round < 50; round += 1) {
    const sealed = await sealAuditChain(db, { wait: true });
    if (sealed === 0) return total;
    if (sealed !== "busy") total += sealed;
  }
  throw new Error("the audit rows were not all sealed after 50 rounds");
}

/** The seal holding chain position `seq`: the latest one starting at or before it. */
const sealOf = (seq: number) =>
  sql`(select first_seq from audit_seals where first_seq <= ${seq} order by first_seq desc limit 1)`;

/** audit_log.id of the row a seal puts at chain position `seq`. */
export async function idAt(db: Executor, seq: number): Promise<number> {
  const [found] = rows<{ id: string | null }>(
    await db.execute(
      sql`select (row_ids[${seq}::bigint - first_seq + 1])::text as id from audit_seals where first_seq = ${sealOf(seq)}`,
    ),
  );
  if (!found?.id) throw new Error(`no sealed row at chain position ${seq}`);
  return Number(found.id);
}

export async function rowAt(db: Executor, seq: number) {
  const [row] = await db
    .select()
    .from(auditLog)
    .where(eq(auditLog.id, await idAt(db, seq)));
  return row!;
}

/** Tampering (behind the seals' trigger): the seal's entry for position `seq` names row `id` instead. */
export function sealedIdAt(seq: number, id: number): SQL {
  return sql`update audit_seals set row_ids[${seq}::bigint - first_seq + 1] = ${id}::bigint
             where first_seq = ${sealOf(seq)}`;
}

/** Every sealed position with the row id it names, in chain order. */
export async function sealedPositions(db: Executor): Promise<{ seq: number; id: number }[]> {
  const found = rows<{ seq: string; id: string }>(
    await db.execute(sql`
      select (s.first_seq + u.n - 1)::text as seq, u.id::text as id
      from audit_seals s cross join lateral unnest(s.row_ids) with ordinality as u(id, n)
      order by 1::int`),
  );
  return found.map((row) => ({ seq: Number(row.seq), id: Number(row.id) }));
}

const TRIGGERED = ["audit_log", "audit_chain_head", "audit_seals"];

/** Superuser tampering behind the triggers, verified inside the same transaction, then undone. */
export async function verifyTampered(
  db: Database,
  key: AuditChainKey,
  ...tamper: SQL[]
): Promise<AuditChainSummary> {
  let summary: AuditChainSummary | undefined;
  await db
    .transaction(async (tx) => {
      for (const table of TRIGGERED)
        await tx.execute(sql`alter table ${sql.identifier(table)} disable trigger all`);
      for (const statement of tamper) await tx.execute(statement);
      for (const table of TRIGGERED)
        await tx.execute(sql`alter table ${sql.identifier(table)} enable trigger all`);
      summary = await verifyAuditChain(tx, key);
      tx.rollback();
    })
    .catch((error: unknown) => {
      if (!(error instanceof TransactionRollbackError)) throw error;
    });
  return summary!;
}

/**
 * An embedded database migrated up to, not including, the migration whose tag ends with `tagSuffix`: the
 * state of a portal of an earlier version, which `handle.migrate()` then upgrades.
 */
export async function pgliteBefore(tagSuffix: string): Promise<DatabaseHandle> {
  const folder = mkdtempSync(path.join(os.tmpdir(), "migrations-"));
  cpSync(MIGRATIONS_FOLDER, folder, { recursive: true });
  const journalFile = path.join(folder, "meta/_journal.json");
  const journal = JSON.parse(readFileSync(journalFile, "utf8")) as { entries: { tag: string }[] };
  const at = journal.entries.findIndex((e) => e.tag.endsWith(tagSuffix));
  if (at <= 0) throw new Error(`no migration ${tagSuffix} after the first`);
  writeFileSync(journalFile, JSON.stringify({ ...journal, entries: journal.entries.slice(0, at) }));
  const client = await createPglite();
  await migratePglite(drizzlePglite(client), { migrationsFolder: folder });
  return fromPglite(client);
}
