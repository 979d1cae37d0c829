import { sql } from "drizzle-orm";
import { auditChainKey, verifyAuditChain, type AuditChainSummary } from "../audit/chain.ts";
import { ConfigError, loadConfig } from "../config.ts";
import { openDatabase } from "../db/client.ts";

/**
 * npm run audit:verify — walks the audit hash chain (decision 023) with the same environment as
 * `npm start` (DATABASE_URL, or the PGlite database under DATA_DIR: stop the portal first, PGlite has
 * one user at a time). Reads only. Exit 0: the chain holds; 1: it is broken (the first bad row is
 * named); 2: it could not be checked (configuration, no database, migrations not applied).
 */
async function main(): Promise<number> {
  const config = loadConfig();
  const database = await openDatabase(config);
  try {
    const found = await database.db.execute<{ head: string | null }>(
      sql`select to_regclass('audit_chain_head')::text as head`,
    );
    if (!(found as unknown as { rows: { head: string | null }[] }).rows[0]?.head) {
      console.error(
        "audit:verify: this database has no audit chain yet: run `npm start` once (it applies the migrations).",
      );
      return 2;
    }
    const summary = await verifyAuditChain(database.db, auditChainKey(config.auditKeySecret));
    report(summary);
    return summary.ok ? 0 : 1;
  } finally {
    await database.close();
  }
}

function report(summary: AuditChainSummary) {
  const unchained =
    summary.unchainedRows > 0
      ? `${summary.unchainedRows} earlier row(s) were written before the chain existed and are not covered.`
      : "No rows from before the chain.";
  if (summary.ok) {
    console.log(
      `audit:verify: OK. ${summary.rowsChecked} chained row(s) verified (positions 1–${summary.lastSeq}).`,
    );
    if (summary.unsealedRows > 0) {
      // Written, each with a MAC that held, and not sealed yet: the next round of any instance seals them.
      console.log(
        `${summary.unsealedRows} row(s) written since the last seal verified against their own MAC; ` +
          "the portal seals them into the chain when it next runs.",
      );
    }
    console.log(unchained);
    console.log(
      `Chain head: position ${summary.lastSeq}, hash ${summary.lastHash || "(empty chain)"}. ` +
        "Keep this line outside the database: a later run whose head is behind it means the newest rows were removed.",
    );
    return;
  }
  const bad = summary.firstBad!;
  const where = bad.id === null ? "the end of the chain" : `audit_log row id ${bad.id}`;
  const position = bad.seq === null ? "" : ` (chain position ${bad.seq})`;
  console.error(`audit:verify: BROKEN at ${where}${position}: ${bad.reason}`);
  console.error(`${summary.rowsChecked} row(s) before it verified (positions 1–${summary.lastSeq}).`);
  console.error(unchained);
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(
      error instanceof ConfigError
        ? error.message
        : `audit:verify: could not check the audit chain: ${error instanceof Error ? error.message : String(error)}`,
    );
    process.exit(2);
  },
);
