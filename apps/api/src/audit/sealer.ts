import { sql } from "drizzle-orm";
import type { FastifyBaseLogger, FastifyInstance } from "fastify";
import type { Database, Transaction } from "../db/client.ts";
import { pgCode, rows } from "../db/rows.ts";
import { assertChainKey } from "./chain.ts";
import { currentAuditChainKey, sealLink, type AuditChainKey } from "./chain-hashes.ts";

/**
 * The sealer (decision 023): gives every committed audit row its place in the chain, in batches. Every
 * instance runs one; a round takes the chain head's row lock, so two sealers never fork the chain (the
 * second skips its round, or waits when flushing).
 *
 * Which rows: the head keeps the snapshot of the last seal. Every row whose transaction that snapshot
 * shows as committed was visible to that seal and sealed by it (or before); so a round seals exactly the
 * rows it sees whose transaction (`audit_log.xid`) the last seal's snapshot does not show as committed —
 * including a row with a lower id committed late, and rows an instance wrote before it was killed. A
 * rolled-back row is never visible, so never sealed. The round reads under one snapshot (REPEATABLE READ)
 * and stores it as the next seal's starting point.
 */

/** Rows per seal record (a round after a long outage writes several). */
const SEAL_ROWS = 1000;
/** How long an unsealed row waits for its seal while the portal runs. */
export const SEAL_INTERVAL_MS = 200;

/** Is there a committed row the last seal did not cover? One index probe, no lock. */
async function hasUnsealed(db: Database): Promise<boolean> {
  const result = await db.execute(sql`
    select exists (
      select 1 from audit_chain_head h
      join audit_log a on a.xid >= pg_snapshot_xmin(h.sealed_snapshot::pg_snapshot)
                      and not pg_visible_in_snapshot(a.xid, h.sealed_snapshot::pg_snapshot)
                      and a.row_mac is not null
      where h.id = 1) as pending`);
  return rows<{ pending: boolean }>(result)[0]?.pending === true;
}

interface LockedHead {
  seq: string | number;
  hash: string;
  key_id: string | null;
  sealed_snapshot: string;
  snapshot: string;
}

async function sealLocked(tx: Transaction, key: AuditChainKey, wait: boolean): Promise<number> {
  // Waiting (a flush) is bounded: a sealer that hangs must not hold a shutdown.
  if (wait) await tx.execute(sql`set local lock_timeout = '3s'`);
  // The first statement fixes the transaction's snapshot; it is also the snapshot stored for the next round.
  const [head] = rows<LockedHead>(
    await tx.execute(sql`
      select seq, hash, key_id, sealed_snapshot, pg_current_snapshot()::text as snapshot
      from audit_chain_head where id = 1 for update ${wait ? sql`` : sql`nowait`}`),
  );
  if (!head) throw new Error("audit_chain_head is missing: run the migrations.");
  assertChainKey(head.key_id, key);
  const since = head.sealed_snapshot;
  let seq = Number(head.seq);
  let previous = head.hash;
  let after = { xid: "0", id: 0 };
  let sealed = 0;
  for (;;) {
    const page = rows<{ id: string; row_mac: string; xid: string }>(
      await tx.execute(sql`
        select id::text as id, row_mac, xid::text as xid from audit_log
        where xid >= pg_snapshot_xmin(${since}::pg_snapshot)
          and not pg_visible_in_snapshot(xid, ${since}::pg_snapshot)
          and row_mac is not null
          and (xid, id) > (${after.xid}::xid8, ${after.id}::bigint)
        order by xid, id
        limit ${SEAL_ROWS}`),
    );
    if (page.length === 0) break;
    const ids = page.map((row) => Number(row.id));
    const links = page.map(
      (row, i) => (previous = sealLink(key, seq + i + 1, previous, ids[i]!, row.row_mac)),
    );
    await tx.execute(sql`
      insert into audit_seals (first_seq, row_ids, row_hashes)
      values (${seq + 1}, ${sql.param(ids)}::bigint[], ${sql.param(links)}::text[])`);
    seq += page.length;
    sealed += page.length;
    after = { xid: page.at(-1)!.xid, id: ids.at(-1)! };
    if (page.length < SEAL_ROWS) break;
  }
  if (sealed > 0) {
    await tx.execute(sql`
      update audit_chain_head
      set seq = ${seq}, hash = ${previous}, key_id = coalesce(key_id, ${key.id}), sealed_snapshot = ${head.snapshot}
      where id = 1`);
  }
  return sealed;
}

/**
 * One round: seals every row committed and not yet sealed. Returns how many rows it sealed, or "busy"
 * when another sealer holds the head (or sealed since this round's snapshot): that one covers them.
 * `wait`: wait for the other sealer instead (a flush).
 */
export async function sealAuditChain(
  db: Database,
  options: { wait?: boolean } = {},
): Promise<number | "busy"> {
  const key = currentAuditChainKey();
  if (!(await hasUnsealed(db))) return 0;
  try {
    return await db.transaction((tx) => sealLocked(tx, key, options.wait ?? false), {
      isolationLevel: "repeatable read",
    });
  } catch (error) {
    // 55P03: the head is locked by another sealer; 40001: it moved after this round's snapshot.
    const code = pgCode(error);
    if (code === "55P03" || code === "40001") return "busy";
    throw error;
  }
}

export interface AuditSealer {
  /** Seals every row committed so far, waiting for another instance's seal if need be; never throws. */
  flush(timeoutMs?: number): Promise<void>;
}

function sealerLog(log: FastifyBaseLogger) {
  let failing = false;
  return {
    failed(error: unknown) {
      // Once per outage, not every round: the rows stay protected by their MACs and wait for a later round.
      if (!failing)
        log.error({ err: error }, "audit rows could not be sealed yet; they are sealed by a later round");
      failing = true;
    },
    succeeded() {
      if (failing) log.info("audit rows are being sealed again");
      failing = false;
    },
  };
}

/**
 * Runs the sealer from the app's start until it closes, a round every `intervalMs`; close waits for the
 * round in flight, then flushes, so an instance stopped on purpose leaves nothing unsealed behind it.
 */
export function useAuditSealer(
  app: FastifyInstance,
  db: Database,
  { intervalMs = SEAL_INTERVAL_MS }: { intervalMs?: number } = {},
): AuditSealer {
  const log = sealerLog(app.log);
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> = Promise.resolve();
  const round = () =>
    sealAuditChain(db).then(
      () => log.succeeded(),
      (error: unknown) => log.failed(error),
    );
  const schedule = () => {
    timer = setTimeout(() => {
      running = round().finally(() => {
        if (!stopped) schedule();
      });
    }, intervalMs);
    timer.unref();
  };
  const flush = async (timeoutMs = 3_000) => {
    const deadline = Date.now() + timeoutMs;
    const drained = (async () => {
      while (Date.now() < deadline) {
        if ((await sealAuditChain(db, { wait: true })) === 0) return;
      }
    })().catch((error: unknown) => log.failed(error));
    // A database that does not answer must not hold a shutdown: what is left waits for the next instance.
    let timer: NodeJS.Timeout | undefined;
    const expired = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, timeoutMs);
      timer.unref();
    });
    await Promise.race([drained, expired]);
    clearTimeout(timer);
  };
  app.addHook("onReady", async () => {
    if (!stopped) schedule();
  });
  app.addHook("onClose", async () => {
    stopped = true;
    if (timer) clearTimeout(timer);
    await running;
    await flush();
  });
  return { flush };
}
