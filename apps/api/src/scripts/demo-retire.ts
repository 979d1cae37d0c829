import { buildApp } from "../app.ts";
import { loadConfig } from "../config.ts";
import { openDatabase } from "../db/client.ts";
import { runScript } from "./run-script.ts";
import { findPublishedCredentials, retirePublishedCredentials } from "../demo/published-credentials.ts";

/**
 * npm run demo:retire — disables every account that still signs in with a credential published in the
 * README (the demo firm's passwords and the demo admin's TOTP key): a production portal refuses to start
 * while one exists. Runs with the same environment as `npm start` (PGlite under DATA_DIR, or DATABASE_URL).
 */
async function main() {
  const config = loadConfig();
  const database = await openDatabase(config);
  try {
    await database.migrate();
    const { app, auth } = await buildApp({ config, database, logger: false });
    const found = await findPublishedCredentials(database.db, (await auth.$context).secretConfig);
    const retired = await retirePublishedCredentials(database.db, found);
    await app.close();
    if (retired === 0) {
      console.log("No account signs in with a published demo credential.");
      return;
    }
    for (const f of found) console.log(`Retired ${f.email} (${f.what}).`);
    console.log(
      `${retired} account(s) can no longer sign in; their sessions ended. Delete their client or employee records from the admin pages if they are not needed.`,
    );
  } finally {
    await database.close();
  }
}

runScript(main, "Could not retire the demo accounts");
