/**
 * An instance that is killed (SIGKILL) before its sealer runs, for audit-sealer.test.ts. It writes audit
 * rows the way the portal does, prints `ready <ids>` and waits to be killed, in one of three states:
 * - `written`: its rows are committed, none sealed;
 * - `open-transaction`: also a row inside a transaction that never commits;
 * - `sealing`: also in the middle of a seal, holding the chain head's lock with a seal row not committed.
 * Env: DATABASE_URL, AUDIT_KEY, MODE, ROWS.
 */
import { sql } from "drizzle-orm";
import { createAuditAppender, recordAudit } from "../../src/audit/audit.ts";
import { auditChainKey, useAuditChainKey } from "../../src/audit/chain.ts";
import { fromPostgres } from "../../src/db/client.ts";
import { rows } from "../../src/db/rows.ts";

const mode = process.env.MODE ?? "written";
const count = Number(process.env.ROWS ?? 20);
useAuditChainKey(auditChainKey(process.env.AUDIT_KEY!));
const handle = fromPostgres(process.env.DATABASE_URL!);
const event = (i: number) =>
  ({
    action: "embed.issued",
    outcome: "success",
    actorEmail: "killed.instance@example.com",
    targetType: "workbook",
    targetId: String(i),
    details: { from: "the instance that is killed", i },
  }) as const;

const hang = () => new Promise<never>(() => setInterval(() => undefined, 60_000));

const appender = createAuditAppender(handle.db, { writers: 4, maxBatch: 7 });
await Promise.all(Array.from({ length: count }, (_, i) => appender.record(event(i))));
await recordAudit(handle.db, event(count));
const written = rows<{ id: string }>(
  await handle.db.execute(
    sql`select id::text as id from audit_log where actor_email = 'killed.instance@example.com' order by audit_log.id`,
  ),
);
const ids = written.map((row) => row.id).join(",");

if (mode === "open-transaction" || mode === "sealing") {
  // Never committed: the kill rolls it back.
  void handle.db.transaction(async (tx) => {
    await recordAudit(tx, { ...event(-1), details: { uncommitted: true } });
    if (mode === "sealing") {
      await tx.execute(sql`select * from audit_chain_head where id = 1 for update`);
      await tx.execute(sql`
        insert into audit_seals (first_seq, row_ids, row_hashes)
        select seq + 1, array[1]::bigint[], array['half-made seal'] from audit_chain_head where id = 1`);
    }
    console.log(`ready ${ids}`);
    await hang();
  });
} else {
  console.log(`ready ${ids}`);
  await hang();
}
