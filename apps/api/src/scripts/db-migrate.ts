import { loadConfig } from "../config.ts";
import { openDatabase } from "../db/client.ts";
import { runScript } from "./run-script.ts";

/**
 * npm run db:migrate — applies pending migrations and exits, with the same environment as `npm start`.
 * For running the portal under a role that does not own its tables: the owner's DATABASE_URL runs this,
 * the portal's own role only checks at boot that nothing is pending (README, security).
 */
async function main() {
  const config = loadConfig();
  const database = await openDatabase(config);
  try {
    await database.migrate();
    console.log("Migrations applied: the database is up to date.");
  } finally {
    await database.close();
  }
}

runScript(main, "Could not apply the migrations");
