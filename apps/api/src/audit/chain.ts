import { eq, sql } from "drizzle-orm";
import type { Executor } from "../db/client.ts";
import { rows as resultRows } from "../db/rows.ts";
import { auditChainHead, auditLog } from "../db/schema.ts";
import { MisconfigurationError } from "../lib/dependency-faults.ts";
import { currentAuditChainKey, rowMac, type AuditChainKey, type PendingRow } from "./chain-hashes.ts";

/**
 * Writing to the audit trail (decision 023, which supersedes 007). A row is written with its own MAC, an
 * HMAC under a key that never reaches the database of its id and fields, and nothing else: no lock, no
 * shared head, so any number of statements, transactions and instances write at once. The sealer
 * (`sealer.ts`) later gives every written row its place in the chain. Whoever can write to the database
 * without the key (a superuser behind `DISABLE TRIGGER`, a restored dump) cannot change, copy or forge a
 * row, sealed or not, without `verifyAuditChain` naming it.
 */
export {
  auditChainKey,
  chainHash,
  currentAuditChainKey,
  rowMac,
  sealLink,
  useAuditChainKey,
  type AuditChainKey,
  type ChainedFields,
  type PendingRow,
} from "./chain-hashes.ts";
export { verifyAuditChain, type AuditChainBreak, type AuditChainSummary } from "./chain-verify.ts";

/** Refuses a chain written with another key: rows this process wrote would never verify. */
export function assertChainKey(keyId: string | null, key: AuditChainKey): void {
  if (keyId && keyId !== key.id) {
    throw new MisconfigurationError(
      "AUDIT_KEY",
      `The audit chain was started with another key (key id ${keyId}; this process has ${key.id}). ` +
        "Set AUDIT_KEY (or BETTER_AUTH_SECRET) to the key the chain was written with.",
    );
  }
}

async function checkHeadKey(db: Executor, key: AuditChainKey): Promise<void> {
  const [head] = await db
    .select({ keyId: auditChainHead.keyId })
    .from(auditChainHead)
    .where(eq(auditChainHead.id, 1));
  if (!head) throw new Error("audit_chain_head is missing: run the migrations.");
  assertChainKey(head.keyId, key);
}

/**
 * Ids taken from the table's own sequence before the insert, because the row's MAC covers its id. The
 * pool's executor keeps a few spare (one round trip per block, not per row); a transaction takes what
 * it needs. An id left unused is a gap, which nothing minds: positions come from the seals.
 */
const spareIds = new WeakMap<object, number[]>();
const ID_BLOCK = 256;

async function allocateIds(db: Executor, count: number): Promise<number[]> {
  const pooled = !("rollback" in db);
  let spare = pooled ? spareIds.get(db) : undefined;
  if (!spare) {
    spare = [];
    if (pooled) spareIds.set(db, spare);
  }
  if (spare.length < count) {
    const wanted = pooled ? Math.max(count - spare.length, ID_BLOCK) : count - spare.length;
    const fetched = await db.execute(
      sql`select nextval('audit_log_id_seq')::text as id from generate_series(1, ${wanted}::int)`,
    );
    spare.push(...resultRows<{ id: string }>(fetched).map((row) => Number(row.id)));
  }
  return spare.splice(0, count);
}

const MAX_ATTEMPTS = 3;

/**
 * Appends rows to the trail in one statement. Many may run at once on one pool and across instances;
 * inside a caller's transaction the rows commit or roll back with it (a rolled-back row never reaches
 * a seal: the sealer only sees committed transactions). The statement inserts nothing unless the chain
 * head names this process's key; the first writer of a new database names it.
 */
export async function appendChained(db: Executor, rows: PendingRow[]): Promise<void> {
  if (rows.length === 0) return;
  const key = currentAuditChainKey();
  const ids = await allocateIds(db, rows.length);
  const macs = rows.map((row, i) => rowMac(key, ids[i]!, row));
  for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt += 1) {
    if ((await insertRows(db, key, ids, rows, macs)) === rows.length) return;
    // Nothing inserted: no key named yet (name ours), or another key is (refused here).
    await db.execute(sql`update audit_chain_head set key_id = ${key.id} where id = 1 and key_id is null`);
    await checkHeadKey(db, key);
  }
  throw new Error(`Could not append to the audit trail after ${MAX_ATTEMPTS} attempts.`);
}

/**
 * One statement whose text does not depend on the batch size, prepared once per connection: the rows
 * travel as one JSON parameter that `json_to_recordset` turns back into rows (cheaper to build, send and
 * plan than a parameter per column; JSON values arrive as the same jsonb their text would give).
 */
function insertStatement(db: Executor) {
  return (
    db
      .insert(auditLog)
      // In the select's text: drizzle's insert-select leaves out its own overridingSystemValue().
      .select(
        sql`overriding system value
          select r.id, r.occurred_at, r.actor_user_id, r.actor_email, r.action, r.outcome, r.target_type,
                 r.target_id, r.ip, r.user_agent, r.request_id, r.before, r.after, r.details, null, null,
                 r.row_mac, pg_current_xact_id()
          from json_to_recordset(${sql.placeholder("records")}::json) as r(
            id bigint, occurred_at timestamptz, actor_user_id text, actor_email text, action text, outcome text,
            target_type text, target_id text, ip text, user_agent text, request_id text, before jsonb,
            after jsonb, details jsonb, row_mac text)
          where exists (select 1 from audit_chain_head where id = 1 and key_id = ${sql.placeholder("keyId")})`,
      )
      .returning({ id: auditLog.id })
      .prepare("audit_rows")
  );
}

const statements = new WeakMap<object, ReturnType<typeof insertStatement>>();

async function insertRows(
  db: Executor,
  key: AuditChainKey,
  ids: number[],
  rows: PendingRow[],
  macs: string[],
): Promise<number> {
  const records = JSON.stringify(
    rows.map((row, i) => ({
      id: ids[i],
      occurred_at: row.occurredAt.toISOString(),
      actor_user_id: row.actorUserId,
      actor_email: row.actorEmail,
      action: row.action,
      outcome: row.outcome,
      target_type: row.targetType,
      target_id: row.targetId,
      ip: row.ip,
      user_agent: row.userAgent,
      request_id: row.requestId,
      before: row.before ?? null,
      after: row.after ?? null,
      details: row.details ?? null,
      row_mac: macs[i],
    })),
  );
  let statement = statements.get(db);
  if (!statement) {
    statement = insertStatement(db);
    statements.set(db, statement);
  }
  return (await statement.execute({ records, keyId: key.id })).length;
}
