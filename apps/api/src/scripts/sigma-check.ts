import { sql } from "drizzle-orm";
import { ConfigError, loadConfig } from "../config.ts";
import { openDatabase } from "../db/client.ts";
import { checkSigmaOrg, formatChecklist } from "../sigma/check.ts";
import { createEmbedder } from "../sigma/embedder.ts";
import { createSigmaRestClient } from "../sigma/provisioning.ts";

/**
 * npm run sigma:check — checks the configured BI service (a Sigma org, or the built-in analytics server)
 * against the portal's catalogue, with the same environment as `npm start` (DATABASE_URL, or the PGlite
 * database under DATA_DIR: stop the portal first, PGlite has one user at a time). Prints a checklist with
 * the fix for each failure. Exit 0: every check passed (manual ones aside); 1: a check failed; 2: it could
 * not run (configuration, database).
 *
 * SIGMA_CHECK_EMAIL: the embed user the embed credentials are tried with (default sigma-check@ the domain
 * of MAIL_FROM); it may open the catalogue's first workbook and sees no client's rows.
 */
async function main(): Promise<number> {
  const config = loadConfig();
  const domain = /@([^>\s]+)/.exec(config.mailFrom)?.[1] ?? "example.com";
  const checkEmail = process.env.SIGMA_CHECK_EMAIL ?? `sigma-check@${domain}`;
  const database = await openDatabase(config);
  try {
    const found = await database.db.execute<{ table: string | null }>(
      sql`select to_regclass('workbooks')::text as table`,
    );
    if (!(found as unknown as { rows: { table: string | null }[] }).rows[0]?.table) {
      console.error(
        "sigma:check: this database has no catalogue yet: run `npm start` once (it applies the migrations).",
      );
      return 2;
    }
    const results = await checkSigmaOrg({
      config,
      db: database.db,
      client: await createSigmaRestClient(config),
      embedder: createEmbedder(config),
      checkEmail,
    });
    console.log(
      `sigma:check against ${config.sigma.builtIn ? "the built-in analytics server" : "the Sigma org"} at ${config.sigma.apiBaseUrl} (API) and ${config.sigma.embedBaseUrl} (embeds):`,
    );
    console.log(formatChecklist(results));
    return results.some((r) => r.outcome === "fail") ? 1 : 0;
  } finally {
    await database.close();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(
      error instanceof ConfigError
        ? error.message
        : `sigma:check: could not run: ${error instanceof Error ? error.message : String(error)}`,
    );
    process.exit(2);
  },
);
