import { and, asc, count, eq, gt, isNotNull, isNull, min, or, sql } from "drizzle-orm";
import type { Executor } from "../db/client.ts";
import { rows as resultRows } from "../db/rows.ts";
import { auditChainHead, auditLog, auditSeals } from "../db/schema.ts";
import { chainHash, rowMac, sealLink, type AuditChainKey } from "./chain-hashes.ts";
import { chainLinks, storedRowColumns, type ChainLink } from "./chain-links.ts";

/**
 * `npm run audit:verify` and the admin screen's check (decision 023): walks every position of the chain
 * in order and stops at the first row that breaks it, then checks each row written but not sealed yet
 * against its own MAC. Reads only: safe while the portal is writing and sealing.
 */

export interface AuditChainBreak {
  /** audit_log.id of the first row where the chain does not hold (null: the chain's end, see reason). */
  id: number | null;
  seq: number | null;
  reason: string;
}

export interface AuditChainSummary {
  ok: boolean;
  /** Rows with a place in the chain whose hashes were checked. */
  rowsChecked: number;
  /** Rows from before the chain existed (neither a link nor a MAC): reported, not provable. */
  unchainedRows: number;
  /** Rows written and checked against their own MAC, not sealed yet (the sealer gives them a place). */
  unsealedRows: number;
  lastSeq: number;
  lastHash: string;
  firstBad: AuditChainBreak | null;
}

const CHANGED =
  "its contents do not match its hash: changed after it was written, or not written by the portal.";
const TAKEN = "it claims a chain position another row already holds.";
const range = (from: number, to: number) => (from === to ? `${from}` : `${from}–${to}`);

class Broken extends Error {
  constructor(readonly found: AuditChainBreak) {
    super(found.reason);
  }
}

const broken = (id: number | null, seq: number | null, reason: string) => new Broken({ id, seq, reason });

/** The state of one walk: how far the chain held. */
interface Walk {
  expected: number;
  previous: string;
  rowsChecked: number;
  /** First position of a run of positions with no row (deleted), named at the next row that is there. */
  missingFrom: number | null;
}

export async function verifyAuditChain(db: Executor, key: AuditChainKey): Promise<AuditChainSummary> {
  // The head first: positions sealed while the walk runs are beyond it and not judged this time.
  const [head] = await db.select().from(auditChainHead).where(eq(auditChainHead.id, 1));
  const [legacy] = await db
    .select({ n: count() })
    .from(auditLog)
    .where(and(isNull(auditLog.chainSeq), isNull(auditLog.rowMac)));
  const walk: Walk = { expected: 1, previous: "", rowsChecked: 0, missingFrom: null };
  const summary = (firstBad: AuditChainBreak | null, unsealedRows = 0): AuditChainSummary => ({
    ok: firstBad === null,
    rowsChecked: walk.rowsChecked,
    unchainedRows: legacy?.n ?? 0,
    unsealedRows,
    lastSeq: walk.expected - 1,
    lastHash: walk.previous,
    firstBad,
  });
  if (!head)
    return summary({
      id: null,
      seq: null,
      reason: "audit_chain_head is missing (deleted, or migrations not run).",
    });
  if (head.keyId && head.keyId !== key.id) {
    const reason = `the chain was written with another key (key id ${head.keyId}; the key given has id ${key.id}).`;
    return summary({ id: null, seq: null, reason });
  }
  try {
    await findStray(db);
    for await (const link of chainLinks(db, head.seq)) check(walk, key, link, head.seq);
    checkEnd(walk, head);
    await findBeyondHead(db, head.seq);
    const unsealedRows = await checkUnsealed(db, key);
    return { ...summary(null, unsealedRows), lastSeq: head.seq, lastHash: head.hash };
  } catch (error) {
    if (error instanceof Broken) return summary(error.found);
    throw error;
  }
}

/** One position: in its place, its row there, its contents and its link as written. */
function check(walk: Walk, key: AuditChainKey, link: ChainLink, lastSeq: number): void {
  const { seq } = link;
  if (seq < walk.expected) throw broken(link.row?.id ?? link.id, seq, TAKEN);
  if (seq > lastSeq) throw broken(link.id, seq, "it lies beyond the chain head: not sealed by the portal.");
  if (seq > walk.expected) walk.missingFrom ??= walk.expected;
  if (!link.row) {
    // Listed by its seal, gone from the table: named at the next row that is still there.
    walk.missingFrom ??= seq;
    walk.expected = seq + 1;
    walk.previous = link.stored ?? "";
    return;
  }
  const { row } = link;
  if (walk.missingFrom !== null) {
    const missing = range(walk.missingFrom, seq - 1);
    throw broken(row.id, seq, `the row(s) at chain position ${missing} before it are missing (deleted).`);
  }
  if (link.twin) throw broken(link.twin.id, seq, TAKEN);
  if (link.kind === "first-chain") {
    if (!row.chainHash || chainHash(key, seq, walk.previous, row) !== row.chainHash) {
      throw broken(row.id, seq, CHANGED);
    }
  } else {
    const mac = rowMac(key, row.id, row);
    if (mac !== row.rowMac) throw broken(row.id, seq, CHANGED);
    if (sealLink(key, seq, walk.previous, row.id, mac) !== link.stored) {
      throw broken(
        row.id,
        seq,
        "it is not the row sealed at this chain position: rows reordered, or the seal changed.",
      );
    }
  }
  walk.previous = link.stored!;
  walk.expected = seq + 1;
  walk.rowsChecked += 1;
}

function checkEnd(walk: Walk, head: { seq: number; hash: string }): void {
  const from = walk.missingFrom ?? (walk.expected - 1 < head.seq ? walk.expected : null);
  if (from !== null) {
    const to = Math.max(head.seq, walk.expected - 1);
    throw broken(
      null,
      from,
      `the last ${to - from + 1} row(s) of the chain (positions ${range(from, to)}) are missing (deleted).`,
    );
  }
  if (head.hash !== walk.previous) {
    throw broken(
      null,
      head.seq,
      "the chain head does not match the last row (the head or the last row was changed).",
    );
  }
}

/** A row with neither a link nor a MAC, added after the chain started: only possible past the check. */
async function findStray(db: Executor): Promise<void> {
  const protectedRow = or(isNotNull(auditLog.chainSeq), isNotNull(auditLog.rowMac));
  const [first] = await db
    .select({ id: min(auditLog.id) })
    .from(auditLog)
    .where(protectedRow);
  if (first?.id == null) return;
  const [stray] = await db
    .select({ id: auditLog.id })
    .from(auditLog)
    .where(and(isNull(auditLog.chainSeq), isNull(auditLog.rowMac), gt(auditLog.id, first.id)))
    .orderBy(asc(auditLog.id))
    .limit(1);
  if (stray)
    throw broken(stray.id, null, "it has no place in the chain but was added after the chain started.");
}

/** Positions past the head were not written by the portal, unless the head moved on while the walk ran. */
async function findBeyondHead(db: Executor, walked: number): Promise<void> {
  const [now] = await db
    .select({ seq: auditChainHead.seq })
    .from(auditChainHead)
    .where(eq(auditChainHead.id, 1));
  const headSeq = Math.max(now?.seq ?? walked, walked);
  const [row] = await db
    .select({ id: auditLog.id, seq: auditLog.chainSeq })
    .from(auditLog)
    .where(gt(auditLog.chainSeq, headSeq))
    .orderBy(asc(auditLog.chainSeq))
    .limit(1);
  if (row) throw broken(row.id, row.seq, "it lies beyond the chain head: not appended by the portal.");
  const [seal] = await db
    .select({ seq: auditSeals.firstSeq, id: sql<number>`${auditSeals.rowIds}[1]`.mapWith(Number) })
    .from(auditSeals)
    .where(gt(auditSeals.firstSeq, headSeq))
    .orderBy(asc(auditSeals.firstSeq))
    .limit(1);
  if (seal) throw broken(seal.id, seal.seq, "it lies beyond the chain head: not sealed by the portal.");
}

const UNSEALED_PAGE = 2000;

/**
 * Rows with a MAC that no seal lists: written, waiting for the sealer (or its next round after a crash).
 * Each must match its own MAC, and no two may share an id. Returns how many there are.
 */
async function checkUnsealed(db: Executor, key: AuditChainKey): Promise<number> {
  const found = await db.execute(sql`
    with sealed as materialized (select unnest(row_ids) as id from audit_seals)
    select a.id::text as id from audit_log a
    where a.row_mac is not null and not exists (select 1 from sealed s where s.id = a.id)
    order by a.id`);
  const ids = resultRows<{ id: string }>(found).map((row) => Number(row.id));
  for (let start = 0; start < ids.length; start += UNSEALED_PAGE) {
    const page = ids.slice(start, start + UNSEALED_PAGE);
    const rows = await db
      .select(storedRowColumns)
      .from(auditLog)
      .where(sql`${auditLog.id} = any(${sql.param(page)}::bigint[])`)
      .orderBy(asc(auditLog.id));
    let last: number | null = null;
    for (const row of rows) {
      if (row.id === last)
        throw broken(row.id, null, "another row already has its id: a copy, not written by the portal.");
      if (rowMac(key, row.id, row) !== row.rowMac) throw broken(row.id, null, CHANGED);
      last = row.id;
    }
  }
  return ids.length;
}
