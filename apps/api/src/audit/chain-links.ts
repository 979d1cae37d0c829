import { and, asc, getTableColumns, gt, gte, isNotNull, lte, or, sql } from "drizzle-orm";
import type { Executor } from "../db/client.ts";
import { auditLog, auditSeals } from "../db/schema.ts";

/**
 * The chain's positions as stored, in order, for `verifyAuditChain`: the rows of the first chain
 * (decision 007), which carry their position and link themselves, merged with the rows the seals list
 * (decision 023), whose position and link the seal holds. Nothing here judges; it only reads.
 */

/** A row as stored, with occurred_at in microseconds (a Date keeps only milliseconds). */
export type StoredRow = typeof auditLog.$inferSelect & { occurredAtMicros: string };

export const storedRowColumns = {
  ...getTableColumns(auditLog),
  occurredAtMicros: sql<string>`(extract(epoch from ${auditLog.occurredAt}) * 1000000)::bigint::text`,
};

export interface ChainLink {
  seq: number;
  /** audit_log.id of the row, or the id a seal lists for this position (the row may be gone). */
  id: number;
  kind: "first-chain" | "sealed";
  /** null: a seal lists the id, but no row has it (deleted). */
  row: StoredRow | null;
  /** A second row under the same id: only possible with the primary key dropped. */
  twin: StoredRow | null;
  /** The link as stored: the row's chain_hash, or the seal's entry for this position. */
  stored: string | null;
}

const ROW_PAGE = 2000;
const SEAL_PAGE = 20;

/** Rows of the first chain up to `lastSeq`, by (chain_seq, id): a second row at one position follows the first. */
async function* firstChainLinks(db: Executor, lastSeq: number): AsyncGenerator<ChainLink> {
  let after = { seq: 0, id: 0 };
  for (;;) {
    const page = await db
      .select(storedRowColumns)
      .from(auditLog)
      .where(
        and(
          isNotNull(auditLog.chainSeq),
          // (chain_seq, id) > (after): written so that the index on chain_seq bounds the scan.
          gte(auditLog.chainSeq, after.seq),
          or(gt(auditLog.chainSeq, after.seq), gt(auditLog.id, after.id)),
          lte(auditLog.chainSeq, lastSeq),
        ),
      )
      .orderBy(asc(auditLog.chainSeq), asc(auditLog.id))
      .limit(ROW_PAGE);
    for (const row of page) {
      yield { seq: row.chainSeq!, id: row.id, kind: "first-chain", row, twin: null, stored: row.chainHash };
      after = { seq: row.chainSeq!, id: row.id };
    }
    if (page.length < ROW_PAGE) return;
  }
}

/** The positions the seals starting at or before `lastSeq` hold, seal by seal, with the rows they name. */
async function* sealedLinks(db: Executor, lastSeq: number): AsyncGenerator<ChainLink> {
  let after = 0;
  for (;;) {
    const seals = await db
      .select()
      .from(auditSeals)
      .where(and(gt(auditSeals.firstSeq, after), lte(auditSeals.firstSeq, lastSeq)))
      .orderBy(asc(auditSeals.firstSeq))
      .limit(SEAL_PAGE);
    if (seals.length === 0) return;
    const ids = seals.flatMap((seal) => seal.rowIds);
    const found = await db
      .select(storedRowColumns)
      .from(auditLog)
      .where(sql`${auditLog.id} = any(${sql.param(ids)}::bigint[])`);
    const byId = new Map<number, StoredRow[]>();
    for (const row of found) byId.set(row.id, [...(byId.get(row.id) ?? []), row]);
    for (const seal of seals) {
      for (const [i, id] of seal.rowIds.entries()) {
        const [row = null, twin = null] = byId.get(id) ?? [];
        yield { seq: seal.firstSeq + i, id, kind: "sealed", row, twin, stored: seal.rowHashes[i] ?? null };
      }
      after = seal.firstSeq;
    }
    if (seals.length < SEAL_PAGE) return;
  }
}

const before = (a: ChainLink, b: ChainLink) => a.seq < b.seq || (a.seq === b.seq && a.id < b.id);

/**
 * Every stored position up to `lastSeq`, ordered by (position, id) across both kinds: the first chain's
 * rows come first (older), then the seals continue it; a position claimed twice shows as two links.
 */
export async function* chainLinks(db: Executor, lastSeq: number): AsyncGenerator<ChainLink> {
  const first = firstChainLinks(db, lastSeq);
  const sealed = sealedLinks(db, lastSeq);
  let a = await first.next();
  let b = await sealed.next();
  for (;;) {
    if (a.done && b.done) return;
    if (!a.done && (b.done || before(a.value, b.value))) {
      yield a.value;
      a = await first.next();
    } else if (!b.done) {
      yield b.value;
      b = await sealed.next();
    }
  }
}
