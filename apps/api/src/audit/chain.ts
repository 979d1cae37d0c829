import { createHmac, hkdfSync } from "node:crypto";
import {
  and,
  asc,
  count,
  eq,
  getTableColumns,
  gt,
  gte,
  isNotNull,
  isNull,
  lte,
  min,
  or,
  sql,
} from "drizzle-orm";
import { configure } from "safe-stable-stringify";
import type { Executor } from "../db/client.ts";
import { MisconfigurationError } from "../lib/dependency-faults.ts";
import { auditChainHead, auditLog } from "../db/schema.ts";

/**
 * The audit hash chain (decision 007). Each row's `chain_hash` is an HMAC-SHA256, under a key that never
 * reaches the database, of the row's fields, its position and the previous row's hash. Whoever can write
 * to the database without the key (a superuser behind `DISABLE TRIGGER`, a restored dump) cannot change,
 * remove or add a row without `verifyAuditChain` naming the first row where the chain breaks.
 */

/** The key the chain is written and verified with, and a public fingerprint stored beside the chain. */
export interface AuditChainKey {
  key: Buffer;
  /** Names the key without revealing it: lets `audit:verify` tell "wrong key" from "tampered". */
  id: string;
}

const CHAIN_VERSION = 1;

/**
 * AUDIT_KEY when set, else the portal's auth secret; either way through HKDF with its own label, so the
 * chain key is never the session-signing key itself.
 */
export function auditChainKey(secret: string): AuditChainKey {
  const key = Buffer.from(hkdfSync("sha256", secret, "", "meridian-portal audit chain v1", 32));
  return { key, id: createHmac("sha256", key).update("audit-chain key id").digest("hex").slice(0, 16) };
}

let processKey: AuditChainKey | undefined;

/** Set once at start-up (buildApp): every audit row this process writes is chained with this key. */
export function useAuditChainKey(key: AuditChainKey): void {
  processKey = key;
}

export function currentAuditChainKey(): AuditChainKey {
  // Fail closed: an unchained row would make the next verify fail, so refuse to write one.
  if (!processKey)
    throw new Error("The audit chain key is not set (useAuditChainKey is called by buildApp).");
  return processKey;
}

/** The fields of a row that the hash covers, as they are stored (JSON values already parsed back). */
export interface ChainedFields {
  occurredAt: Date;
  /**
   * occurred_at in microseconds since 1970 as the database holds it (read back by verify: a Date keeps
   * only milliseconds, and a change in the microseconds must break the hash too). Unset: from occurredAt.
   */
  occurredAtMicros?: string;
  actorUserId: string | null;
  actorEmail: string | null;
  action: string;
  outcome: string;
  targetType: string | null;
  targetId: string | null;
  ip: string | null;
  userAgent: string | null;
  requestId: string | null;
  before: unknown;
  after: unknown;
  details: unknown;
}

// Sorted keys at every depth: jsonb gives objects back in its own key order, not the order written.
const canonical = configure({ deterministic: true, circularValue: TypeError, bigint: false });

export function chainHash(key: AuditChainKey, seq: number, previous: string, row: ChainedFields): string {
  const content = canonical([
    CHAIN_VERSION,
    seq,
    previous,
    row.occurredAtMicros ?? String(row.occurredAt.getTime() * 1000),
    row.actorUserId,
    row.actorEmail,
    row.action,
    row.outcome,
    row.targetType,
    row.targetId,
    row.ip,
    row.userAgent,
    row.requestId,
    row.before ?? null,
    row.after ?? null,
    row.details ?? null,
  ]);
  return createHmac("sha256", key.key).update(content).digest("hex");
}

interface Head {
  seq: number;
  hash: string;
}

/**
 * Where the next append on each executor is expected to start. Only a guess that saves reading the head
 * before every insert: the insert moves the head only if it is still where the guess says, so a wrong
 * guess (another process, a rolled-back transaction) costs one re-read and a retry, never a wrong link.
 * Keyed by executor object: the pool's shared `db`, or one transaction.
 */
const predictedHeads = new WeakMap<object, Head>();

const MAX_ATTEMPTS = 1000;

async function readHead(db: Executor, key: AuditChainKey): Promise<Head> {
  const [head] = await db.select().from(auditChainHead).where(eq(auditChainHead.id, 1));
  if (!head) throw new Error("audit_chain_head is missing: run the migrations.");
  if (head.keyId && head.keyId !== key.id) {
    throw new MisconfigurationError(
      "AUDIT_KEY",
      `The audit chain was started with another key (key id ${head.keyId}; this process has ${key.id}). ` +
        "Set AUDIT_KEY (or BETTER_AUTH_SECRET) to the key the chain was written with.",
    );
  }
  return { seq: head.seq, hash: head.hash };
}

/** A row ready to insert: the fields the hash covers, JSON values as the text that is stored. */
export interface PendingRow extends ChainedFields {
  beforeJson: string | null;
  afterJson: string | null;
  detailsJson: string | null;
}

/**
 * Appends rows as the next links of the chain in one statement: a CTE moves the single-row head from
 * where this writer expects it to the new last link, and the insert happens only if it did. The head's
 * row lock puts concurrent writers (other processes, open transactions) in one order until they commit;
 * a transaction that rolls back takes its head move with it. Inside a caller's transaction the head stays
 * locked until that transaction ends, so record audit rows late in long transactions.
 */
export function appendChained(db: Executor, rows: PendingRow[]): Promise<void> {
  // One append at a time per executor in this process: a second statement sent on another pool connection
  // while the first is in flight would find the head not yet moved (or locked) and have to retry.
  const run = (inFlight.get(db) ?? Promise.resolve()).then(() => appendNow(db, rows));
  inFlight.set(
    db,
    run.catch(() => undefined),
  );
  return run;
}

const inFlight = new WeakMap<object, Promise<unknown>>();

async function appendNow(db: Executor, rows: PendingRow[]): Promise<void> {
  if (rows.length === 0) return;
  const key = currentAuditChainKey();
  for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt += 1) {
    const start = predictedHeads.get(db) ?? (await readHead(db, key));
    let previous = start.hash;
    const hashes = rows.map((row, i) => (previous = chainHash(key, start.seq + i + 1, previous, row)));
    const last: Head = { seq: start.seq + rows.length, hash: previous };
    predictedHeads.set(db, last);
    let inserted: number;
    try {
      inserted = await insertLinks(db, key, start, last, rows, hashes);
    } catch (error) {
      predictedHeads.delete(db);
      throw error;
    }
    if (inserted === rows.length) return;
    // Someone else moved the head first (or our guess was stale): read where it is and try again.
    if (predictedHeads.get(db) === last) predictedHeads.delete(db);
  }
  throw new Error(`Could not append to the audit chain after ${MAX_ATTEMPTS} attempts.`);
}

/**
 * One statement whose text does not depend on the batch size: each column travels as one array
 * parameter and `unnest` turns them back into rows (cheaper to build and to plan than N VALUES rows).
 */
async function insertLinks(
  db: Executor,
  key: AuditChainKey,
  from: Head,
  to: Head,
  rows: PendingRow[],
  hashes: string[],
): Promise<number> {
  const column = <T>(pick: (row: PendingRow, i: number) => T) => sql.param(rows.map(pick));
  const result = await db.execute<{ seq: number }>(sql`
    with head as (
      update audit_chain_head set seq = ${to.seq}, hash = ${to.hash}, key_id = coalesce(key_id, ${key.id})
      where id = 1 and seq = ${from.seq} and hash = ${from.hash} and (key_id is null or key_id = ${key.id})
      returning 1
    )
    insert into audit_log (occurred_at, actor_user_id, actor_email, action, outcome, target_type, target_id, ip,
                           user_agent, request_id, before, after, details, chain_seq, chain_hash)
    select * from unnest(
      ${column((r) => r.occurredAt.toISOString())}::timestamptz[],
      ${column((r) => r.actorUserId)}::text[], ${column((r) => r.actorEmail)}::text[],
      ${column((r) => r.action)}::text[], ${column((r) => r.outcome)}::text[],
      ${column((r) => r.targetType)}::text[], ${column((r) => r.targetId)}::text[],
      ${column((r) => r.ip)}::text[], ${column((r) => r.userAgent)}::text[],
      ${column((r) => r.requestId)}::text[], ${column((r) => r.beforeJson)}::jsonb[],
      ${column((r) => r.afterJson)}::jsonb[], ${column((r) => r.detailsJson)}::jsonb[],
      ${column((_, i) => from.seq + i + 1)}::bigint[], ${column((_, i) => hashes[i])}::text[])
    where exists (select 1 from head)
    returning 1 as seq`);
  return (result as unknown as { rows: unknown[] }).rows.length;
}

export interface AuditChainBreak {
  /** audit_log.id of the first row where the chain does not hold (null: the chain's end, see reason). */
  id: number | null;
  seq: number | null;
  reason: string;
}

export interface AuditChainSummary {
  ok: boolean;
  /** Chained rows whose hash was checked. */
  rowsChecked: number;
  /** Rows from before the chain existed (no chain_seq): reported, not provable. */
  unchainedRows: number;
  lastSeq: number;
  lastHash: string;
  firstBad: AuditChainBreak | null;
}

const PAGE = 2000;

/**
 * Walks the whole chain in order and stops at the first row that breaks it. Reads only: safe to call
 * from an admin screen or `npm run audit:verify` while the portal is writing.
 */
export async function verifyAuditChain(db: Executor, key: AuditChainKey): Promise<AuditChainSummary> {
  // The head first: rows appended while the walk runs are beyond it and not judged this time.
  const [head] = await db.select().from(auditChainHead).where(eq(auditChainHead.id, 1));
  const [legacy] = await db.select({ n: count() }).from(auditLog).where(isNull(auditLog.chainSeq));
  const unchainedRows = legacy?.n ?? 0;
  let rowsChecked = 0;
  let expected = 1;
  let previous = "";
  const fail = (id: number | null, seq: number | null, reason: string): AuditChainSummary => ({
    ok: false,
    rowsChecked,
    unchainedRows,
    lastSeq: expected - 1,
    lastHash: previous,
    firstBad: { id, seq, reason },
  });
  if (!head) return fail(null, null, "audit_chain_head is missing (deleted, or migrations not run).");
  if (head.keyId && head.keyId !== key.id) {
    return fail(
      null,
      null,
      `the chain was written with another key (key id ${head.keyId}; the key given has id ${key.id}).`,
    );
  }

  // A row without a place in the chain, added after the chain started: only possible past the check.
  const [firstChained] = await db
    .select({ id: min(auditLog.id) })
    .from(auditLog)
    .where(isNotNull(auditLog.chainSeq));
  if (firstChained?.id != null) {
    const [stray] = await db
      .select({ id: auditLog.id })
      .from(auditLog)
      .where(and(isNull(auditLog.chainSeq), gt(auditLog.id, firstChained.id)))
      .orderBy(asc(auditLog.id))
      .limit(1);
    if (stray)
      return fail(stray.id, null, "it has no place in the chain but was added after the chain started.");
  }

  let after = { seq: 0, id: 0 };
  for (;;) {
    // Keyset pages in chain order; a second row at one position comes right after the first.
    const page = await db
      .select({
        ...getTableColumns(auditLog),
        occurredAtMicros: sql<string>`(extract(epoch from ${auditLog.occurredAt}) * 1000000)::bigint::text`,
      })
      .from(auditLog)
      .where(
        and(
          isNotNull(auditLog.chainSeq),
          // (chain_seq, id) > (after): written so that the unique index on chain_seq bounds the scan.
          gte(auditLog.chainSeq, after.seq),
          or(gt(auditLog.chainSeq, after.seq), gt(auditLog.id, after.id)),
          lte(auditLog.chainSeq, head.seq),
        ),
      )
      .orderBy(asc(auditLog.chainSeq), asc(auditLog.id))
      .limit(PAGE);
    for (const row of page) {
      const seq = row.chainSeq!;
      if (seq < expected) return fail(row.id, seq, "it claims a chain position another row already holds.");
      if (seq > expected) {
        const missing = seq - 1 === expected ? `${expected}` : `${expected}–${seq - 1}`;
        return fail(row.id, seq, `the row(s) at chain position ${missing} before it are missing (deleted).`);
      }
      if (!row.chainHash || chainHash(key, seq, previous, row) !== row.chainHash) {
        return fail(
          row.id,
          seq,
          "its contents do not match its hash: changed after it was written, or not written by the portal.",
        );
      }
      previous = row.chainHash;
      expected = seq + 1;
      rowsChecked += 1;
      after = { seq, id: row.id };
    }
    if (page.length < PAGE) break;
  }
  if (expected - 1 < head.seq) {
    return fail(
      null,
      expected,
      `the last ${head.seq - expected + 1} row(s) of the chain (positions ${expected}–${head.seq}) are missing (deleted).`,
    );
  }
  if (head.hash !== previous) {
    return fail(
      null,
      head.seq,
      "the chain head does not match the last row (the head or the last row was changed).",
    );
  }
  // Rows past the head were not appended by the portal, unless the head moved on while the walk ran.
  const [now] = await db.select().from(auditChainHead).where(eq(auditChainHead.id, 1));
  const [beyond] = await db
    .select({ id: auditLog.id, seq: auditLog.chainSeq })
    .from(auditLog)
    .where(gt(auditLog.chainSeq, now?.seq ?? head.seq))
    .orderBy(asc(auditLog.chainSeq))
    .limit(1);
  if (beyond)
    return fail(beyond.id, beyond.seq, "it lies beyond the chain head: not appended by the portal.");
  return { ok: true, rowsChecked, unchainedRows, lastSeq: head.seq, lastHash: head.hash, firstBad: null };
}
